/*
 * sarif_uri.h - the URIs of a SARIF log's artifacts (private to src/diag:
 * diag_sarif.c).  A path is normalised first (RFC 3986 5.2.4 dot-segment
 * removal, no empty segments), then made relative to the working
 * directory (uriBaseId SRCROOT, SARIF 2.1.0 3.4.4) when it is below it,
 * whether it was given relative or absolute, or an absolute file URI
 * (RFC 8089) otherwise: never a URI with "." or ".." segments (the SARIF
 * validator's SARIF1002).  The path is normalised as text: "d/../x" is
 * "x" even where d is a symbolic link (as RFC 3986 resolves references).
 */
#ifndef NVTXT_SARIF_URI_H
#define NVTXT_SARIF_URI_H

#include <stdbool.h>

#include "util.h"

/*
 * Appends the bytes of s as a URI path (RFC 3986 3.3): ASCII letters,
 * digits, '-', '.', '_', '~' (unreserved, 2.3) and '/' as they are, every
 * other byte as %XX (2.1) -- a space, '%', '#', '?', ':', a backslash
 * (a character of a POSIX file name, not a separator) and each byte of a
 * UTF-8 sequence.
 */
void sarif_add_uri_path(struct buf *b, const char *s);

/*
 * path without "." and ".." segments and without empty ones ("a//b" is
 * "a/b"): RFC 3986 5.2.4 on its segments.  ".." at the root stays there.
 * A malloc'd string (free() it).
 */
char *sarif_normalise_path(const char *path);

/* The working directory, as paths are made relative to it. */
struct sarif_base {
	char *dirs[2];   /* getcwd(), and $PWD when it names the same directory another way */
	size_t ndirs;    /* 0: the working directory is unknown */
};

void sarif_base_init(struct sarif_base *base);
void sarif_base_free(struct sarif_base *base);

/* file:///the/working/directory/ -- with the final '/' of a directory (3.14.14). malloc'd. */
char *sarif_base_uri(const struct sarif_base *base);

/*
 * The URI of input `name` (a path, relative to the working directory or
 * absolute): relative to the first of base's directories it is below
 * (*relative set: the artifactLocation takes uriBaseId SRCROOT), else an
 * absolute file:// URI.  malloc'd.
 */
char *sarif_uri(const struct sarif_base *base, const char *name, bool *relative);

#endif
