/*
 * lang_doc.h - the documentation of the language's arguments, commands and
 * time bases (lang_doc.c), for the language server.  Internal to nvtxtc;
 * static strings, thread-safe.
 */
#ifndef NVTXT_LANG_DOC_H
#define NVTXT_LANG_DOC_H

#include "lang_args.h"

/* The documentation of `arg`, `cmd` or `tb`; NULL when out of range. */
const struct lang_arg_doc *lang_arg_doc(enum nvtxt_arg arg);
const char *lang_command_meaning(enum nvtxt_command cmd);
const char *lang_timebase_meaning(enum nvtxt_timebase tb);

#endif
