/*
 * nvtxt/nvtxt.h - libnvtxt, the NVTXT compiler as a library (libnvtxt(3)).
 * Include this one header; it includes the rest of include/nvtxt/:
 *   language.h    the language: locations, commands, arguments, time
 *                 bases, the checked event
 *   checks.h      the check registry: every diagnostic's stable name
 *   diag.h        diagnostic records, their settings, sink and text printer
 *   ast.h         the AST: one node per line, as syntax mode hands it on
 *   backend.h     what a back end receives
 *   compile.h     nvtxt_compile: a buffer or a file descriptor in, checked
 *                 events and diagnostics out
 *   emit_nvtxt.h  the normal-form back end
 *   payload.h     the NVTX payload back end, reader and dump
 * Link with `pkg-config --cflags --libs nvtxt`.  Every exported symbol
 * starts with nvtxt_.
 *
 * Conventions for every function of the library, unless its comment says
 * otherwise:
 *   - errors are returned (-1 with errno, NULL with errno, or a status);
 *     the library never exits, aborts, raises or handles signals, and
 *     never writes to standard error;
 *   - out of memory is an error like any other (ENOMEM);
 *   - the caller owns what it passes in and keeps it alive for the call
 *     (or, for an object's constructor, until the object is freed); what
 *     the library hands to a callback is valid during the callback only;
 *   - functions are thread-safe on different objects; one object is used
 *     by one thread at a time;
 *   - sizes and columns are in bytes, strings are UTF-8 and not
 *     NUL-terminated when they come as a struct nvtxt_str.
 */
#ifndef NVTXT_NVTXT_H
#define NVTXT_NVTXT_H

#include "language.h"
#include "checks.h"
#include "diag.h"
#include "ast.h"
#include "backend.h"
#include "compile.h"
#include "emit_nvtxt.h"
#include "payload.h"

#endif
