/*
 * sarif_uri.c - the URIs of a SARIF log's artifacts (sarif_uri.h): POSIX
 * paths made URI references by RFC 3986 (Uniform Resource Identifier:
 * Generic Syntax; section numbers below are its) and by SARIF 2.1.0 3.4
 * (artifactLocation) and 3.14.14 (originalUriBaseIds).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sarif_uri.h"

void sarif_add_uri_path(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		/* unreserved (2.3) ASCII only: a locale's isalnum() could keep a byte above 0x7F */
		bool keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			    strchr("-._~/", *p);
		if (keep)
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "%%%02X", *p);
	}
}

char *sarif_normalise_path(const char *path)
{
	struct buf b = { 0 };
	bool absolute = path[0] == '/';
	char *s;

	if (absolute)
		buf_addc(&b, '/');
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* an empty segment ("//") or "." names the directory it is in */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			/* ".." removes the segment before it (above the root: nothing) */
			size_t keep = absolute ? 1 : 0;
			while (b.len > keep && b.ptr[b.len - 1] == '/')
				b.len--;
			while (b.len > keep && b.ptr[b.len - 1] != '/')
				b.len--;
		} else {
			if (b.len && b.ptr[b.len - 1] != '/')
				buf_addc(&b, '/');
			buf_add(&b, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	s = xstrndup(b.ptr ? b.ptr : "", b.len);
	buf_free(&b);
	return s;
}

/* True when dirs a and b are one directory (same device and inode). */
static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void sarif_base_init(struct sarif_base *base)
{
	char dir[PATH_MAX];
	const char *pwd = getenv("PWD");

	memset(base, 0, sizeof(*base));
	if (getcwd(dir, sizeof dir) && dir[0] == '/')
		base->dirs[base->ndirs++] = sarif_normalise_path(dir);
	/* the shell's name of the same directory, which may go through a symbolic link */
	if (base->ndirs && pwd && pwd[0] == '/' && same_dir(pwd, ".")) {
		char *p = sarif_normalise_path(pwd);
		if (strcmp(p, base->dirs[0]) != 0)
			base->dirs[base->ndirs++] = p;
		else
			free(p);
	}
}

void sarif_base_free(struct sarif_base *base)
{
	for (size_t i = 0; i < base->ndirs; i++)
		free(base->dirs[i]);
	memset(base, 0, sizeof(*base));
}

char *sarif_base_uri(const struct sarif_base *base)
{
	struct buf b = { 0 };
	char *s;

	buf_adds(&b, "file://");
	sarif_add_uri_path(&b, base->ndirs ? base->dirs[0] : "/");
	if (b.ptr[b.len - 1] != '/')
		buf_addc(&b, '/');
	s = xstrndup(b.ptr, b.len);
	buf_free(&b);
	return s;
}

/* The part of absolute, normalised `path` below directory `dir`, or NULL when it is not below it. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1) /* the root */
		return path[1] ? path + 1 : NULL;
	if (strncmp(path, dir, n) != 0 || path[n] != '/' || !path[n + 1])
		return NULL;
	return path + n + 1;
}

char *sarif_uri(const struct sarif_base *base, const char *name, bool *relative)
{
	struct buf b = { 0 };
	char *full, *norm, *s;
	const char *rel = NULL;

	if (name[0] == '/' || !base->ndirs) {
		full = xstrndup(name, strlen(name));
	} else {
		buf_printf(&b, "%s/%s", base->dirs[0], name);
		full = xstrndup(b.ptr, b.len);
		b.len = 0;
	}
	norm = sarif_normalise_path(full);
	free(full);
	for (size_t i = 0; i < base->ndirs && !rel; i++)
		rel = below(norm, base->dirs[i]);
	*relative = rel || norm[0] != '/';
	if (rel) {
		sarif_add_uri_path(&b, rel);
	} else if (norm[0] == '/') {
		buf_adds(&b, "file://");
		sarif_add_uri_path(&b, norm);
	} else {
		/* no working directory known: the relative path, normalised */
		sarif_add_uri_path(&b, norm);
	}
	free(norm);
	s = xstrndup(b.ptr ? b.ptr : "", b.len);
	buf_free(&b);
	return s;
}
