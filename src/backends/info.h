/*
 * info.h - facts about an NVTXT file (nvtxtc info), gathered as a back end
 * while the file streams through the front end: what ImportNvtxt's
 * `--cmd info` tells about a report, and more (nvtxtc(1), INFO).
 *
 * Memory follows the numbers of threads, processes, categories and
 * distinct messages, never the number of events.
 */
#ifndef NVTXT_INFO_H
#define NVTXT_INFO_H

#include <jansson.h>
#include <stdio.h>

#include "nvtxt/backend.h"
#include "timeconv.h"

struct nvtxt_info;

/* How many of the longest ranges and of the open ranges are listed. */
#define NVTXT_INFO_TOP 10

/*
 * A new collector; times convert to nanoseconds with `tc` (copied) where
 * its rules allow.  Never returns NULL (out of memory exits, util.h).
 */
struct nvtxt_info *nvtxt_info_new(const struct nvtxt_tconv *tc);
void nvtxt_info_free(struct nvtxt_info *info);

/*
 * Starts the next input file, named `name` (copied; NULL: unnamed): the
 * facts of several files make one report (nvtxtc(1), INFO), threads with
 * the same ProcessId and ThreadId merged, push/pop nesting per file.
 * Reading a single file without calling it is reading one file.
 */
void nvtxt_info_file(struct nvtxt_info *info, const char *name);

/* The back end that collects; its callbacks never fail. */
struct nvtxt_backend nvtxt_info_backend(struct nvtxt_info *info);

/*
 * The facts as a JSON object (owned by the caller; NULL when out of
 * memory), of one shape whatever the number of files: "files" lists
 * the names given to nvtxt_info_file (`file` alone when none was), and
 * every range has its "file".  Shape in nvtxtc(1), INFO.
 */
json_t *nvtxt_info_json(const struct nvtxt_info *info, const char *file);

/*
 * The facts for a person: sections of aligned tables, made from the same
 * columns as the JSON object (info_report.c), so both say the same.
 * Returns 0, or -1 with errno set when writing fails.
 */
int nvtxt_info_print(const struct nvtxt_info *info, const char *file, FILE *out);

#endif
