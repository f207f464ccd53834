/*
 * driver.h - what the files of the nvtxtc driver share: the parsed
 * command line, the run's state, and the two tables main.c dispatches
 * through (subcommands and --emit back ends).
 *
 * Adding a subcommand is one row of `subcommands[]` in main.c plus its run
 * function (a cmd_*.c file); adding a back end is one row of `emitters[]`
 * in main.c plus the function that makes its struct nvtxt_backend.  The
 * options are a table of their own, parsed in options.c only; --help
 * (and `nvtxtc help COMMAND`), nvtxtc(1) and the bash completion
 * (completion/nvtxtc.bash reads `nvtxtc help COMMAND`) follow the tables.
 */
#ifndef NVTXT_DRIVER_H
#define NVTXT_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

#include "nvtxt/backend.h"
#include "nvtxt/compile.h"
#include "diag_engine.h"
#include "timeconv.h"
#include "diag_report.h"

struct emitter;
struct subcommand;

/* --diagnostics-format: GCC's text as diagnostics come, or one document at the end. */
enum diag_format { DIAG_TEXT, DIAG_JSON, DIAG_SARIF };

/* The command line, after parsing (main.c). */
struct options {
	const struct subcommand *cmd;
	bool cmd_given;             /* the command was named (not the default lint) */
	const struct emitter *emit; /* --emit=NAME; NULL: none (lint only) */
	bool check;                 /* fmt --check */
	bool list;                  /* fmt -l */
	bool diff;                  /* fmt -d */
	bool list_checks;           /* --list-checks: print the registry and exit */
	bool in_place;              /* fmt -i */
	bool recover;               /* fmt --recover */
	const char *output;         /* -o FILE */
	const char *stdin_name;
	long jobs;                  /* -j: threads; 0 = the number of processors */
	bool read_ahead;            /* a thread to spare for each input: nvtxt_compile_options.read_ahead */
	int color;                  /* -1 auto, 0 never, 1 always */
	struct nvtxt_diag_config diag;
	struct nvtxt_warning_options warn; /* the -W options so far (nvtxt_warning_option) */
	struct nvtxt_tconv tconv;   /* --time-conversion, over the defaults of timeconv.h */
	bool info_json;             /* info --format=json */
	int stats_report;           /* stats --report (enum stats_report) */
	int stats_format;           /* stats --format (enum stats_format) */
	int stats_unit;             /* stats --timeunit (enum stats_unit) */
	enum diag_format format;    /* --diagnostics-format */
	bool format_to_stderr;      /* GCC's -fdiagnostics-format: the document goes to standard error */
	const char *diag_output;    /* --diagnostics-output=FILE */
	bool fix;                   /* lint --fix */
	int progress;               /* --progress 1, --no-progress 0, -1: when stderr is a terminal */
};

struct totals {
	unsigned long errors, warnings;
};

/*
 * One run of nvtxtc: diagnostics and driver messages go to standard error
 * (text), or into `report` (JSON, SARIF), written by diag_output_finish.
 */
struct run {
	struct options *opt;
	FILE *out;                         /* standard output, or a job's buffer */
	struct nvtxt_text_printer printer; /* standard error, or a job's buffer */
	struct nvtxt_diag_sink sink;       /* the printer's sink, or the report's */
	struct totals totals;
	/*
	 * The sink of one job of run_jobs, printing to `err` (the job's
	 * buffer) as run->sink prints to standard error; *state (may be left
	 * NULL) is freed with free() after the job.  NULL: the text printer.
	 * A diagnostics printer other than text (JSON, SARIF) sets both sink
	 * and job_sink.
	 */
	struct nvtxt_diag_sink (*job_sink)(const struct run *run, FILE *err, void **state);
	struct nvtxt_report *report;       /* JSON and SARIF: the whole run; NULL for text */
};

/*
 * jobs.c: runs job(run, path) for each of the n files, by up to `threads`
 * threads (fewer when file descriptors are short: each job may hold
 * `fds_per_job` at once).  With more than one thread, every job writes its
 * standard output and its diagnostics to buffers of its own, printed
 * whole, in the order of the files, as soon as the files before it are
 * printed, so the output is the same as one at a time.  Adds the jobs'
 * counts to run->totals; returns the worst status.
 */
typedef int (*job_fn)(struct run *run, const char *path);
int run_jobs(struct run *run, char **files, int n, long threads, int fds_per_job, job_fn job);
/* The number of file descriptors this process may still open (a guess: never below 0). */
long free_fds(void);

/*
 * walk.c: the operands of lint and fmt, with each directory replaced by
 * the *.nvtxt files under it, in sorted order (strcmp of names), skipping
 * names that start with '.' and symbolic links to directories.  A
 * directory without any is reported.  *files is allocated (free_files).
 * Returns 0, or 2 when a directory could not be read or held no file.
 */
int expand_operands(const struct nvtxt_diag_sink *sink, char **operands, int n,
		    char ***files, int *nfiles);
void free_files(char **files, int n);

/*
 * A subcommand: `nvtxtc NAME [OPTION]... OPERAND...`.  `options` is the
 * set of option classes (OPTC_*) it accepts; any other option is a usage
 * error.  `validate` (may be NULL) checks the combination of options and
 * the number of operands and returns a usage message, or NULL.  `run`
 * gets the operands (files) and returns the exit status (0, 1 or 2).
 */
enum {
	OPTC_GENERAL = 1 << 0, /* --help, --version, --color, --diagnostics-format, ... */
	OPTC_DIAG = 1 << 1,    /* --max-errors: any command that checks NVTXT */
	OPTC_EMIT = 1 << 2,    /* --emit, -o */
	OPTC_FMT = 1 << 3,     /* --check, -l, -d, -i, -w (gofmt's: -i) */
	OPTC_LSP = 1 << 4,     /* --stdio */
	OPTC_TIME = 1 << 5,    /* --time-conversion */
	OPTC_INFO = 1 << 6,    /* info --format */
	OPTC_FIX = 1 << 7,     /* --fix */
	OPTC_WARN = 1 << 8,    /* -W..., -w: the commands that report warnings (not fmt) */
	OPTC_STATS = 1 << 9,   /* stats: --report, --timeunit, --format, -o */
	OPTC_PROGRESS = 1 << 10, /* --progress, --no-progress: the commands that read files */
	OPTC_INPUT = 1 << 11,  /* -j, --stdin-name: the commands that check FILE operands (not lsp) */
};
struct subcommand {
	const char *name;
	const char *synopsis; /* usage after "nvtxtc " */
	const char *summary;  /* --help; lines after the first start with blanks */
	unsigned options;
	bool reads_stdin;     /* no FILE and standard input not a terminal: FILE '-' */
	const char *(*validate)(const struct options *opt, char **operands, int noperands);
	int (*run)(struct run *run, char **operands, int noperands);
};

/*
 * A back end of --emit=NAME.  `start` makes the back end writing to `out`
 * (standard output, or the temporary of -o) for the options `opt` and may
 * keep state in *state; it returns 0, or -1 with errno set.  `stop` (may
 * be NULL) frees that state after the compile.  A back end with
 * needs_output writes a binary file and requires -o.  `start` NULL: no
 * back end (--emit=none).  `error` (may be NULL), called before `stop`
 * with i = 0, 1, ... until it returns NULL, returns the message of the
 * i-th error in the input that the back end found itself (a time that
 * does not convert: its callbacks returned NVTXT_ERR_TIME_NO_RATE or
 * NVTXT_ERR_TIME_RANGE), in line order, and its location in *loc.
 */
struct emitter {
	const char *name;
	const char *summary; /* --help */
	bool needs_output;
	int (*start)(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state);
	void (*stop)(void *state);
	const char *(*error)(void *state, size_t i, struct nvtxt_loc *loc);
	bool merges; /* several FILEs make one document (chrome: cmd_lint.c's run_chrome_merged) */
};

/* main.c: the tables. */
extern const struct subcommand subcommands[];
extern const int n_subcommands;
extern const struct emitter emitters[];
extern const int n_emitters;

/*
 * options.c: the command line.  parse_options parses argv[0..argc) (getopt's
 * optind: the first operand) for o->cmd: returns -1 when the run goes on,
 * or the exit status (--help, --version, --list-checks, a usage error).
 * print_help prints --help (cmd NULL: every command; else that command's
 * usage and options only, which the bash completion reads).
 * usage_error reports a usage error and a note pointing to --help; it
 * returns 2.  unknown_command returns the message for an operand that is
 * no file and is close to a command's name (git's "did you mean"), or NULL.
 */
int parse_options(struct options *o, int argc, char **argv, const struct nvtxt_diag_sink *sink);
void print_help(FILE *out, const struct subcommand *cmd);
int usage_error(const struct nvtxt_diag_sink *sink, const char *fmt, ...) NVTXT_PRINTF(2, 3);
const char *unknown_command(const char *word);
/* Flushes standard output; a failed write is an I/O error (exit 2), worded as write_error_stdout. */
int finish_stdout(const struct nvtxt_diag_sink *sink, int status);
/* The one wording of a failed write to standard output: "cannot write standard output: REASON". */
void write_error_stdout(const struct nvtxt_diag_sink *sink, int err);

/* diag_output.c: --diagnostics-format and --diagnostics-output. */

/*
 * Parses the argument of --diagnostics-format (gcc false) or of GCC's
 * -fdiagnostics-format (gcc true: "text", "json", "json-stderr",
 * "sarif-stderr"; the document then goes to standard error) into *o.
 * Returns NULL, or a usage message.
 */
const char *diag_format_option(struct options *o, const char *arg, bool gcc);
/*
 * Before the options are parsed: when argv asks for JSON or SARIF, the run
 * collects every diagnostic, usage errors included, into a report (run->sink
 * becomes the report's).  Unparseable values are left to parse_options.
 */
void diag_output_prescan(struct run *run, int argc, char **argv);
/*
 * At the end of the run: writes the report (if any) to --diagnostics-output
 * (atomically), to standard output when the run writes nothing else there,
 * or to standard error; returns the exit status (2 when it cannot be written).
 */
int diag_output_finish(struct run *run, int argc, char **argv, int status);
/* True when a report collects this run's diagnostics (JSON, SARIF). */
bool is_report_sink(const struct nvtxt_diag_sink *sink);

/* cmd_fix.c: lint --fix.  Fixes each file, then lints what is left. */
int run_fix(struct run *run, char **files, int nfiles);

/* cmd_lint.c: lint, --emit */
int run_lint(struct run *run, char **files, int nfiles);
/*
 * Reports msg, an error of the input that a back end found itself (a time
 * that does not convert), at loc of path, with the line's excerpt when path
 * is a file (read back); counts it in run->totals.
 */
void report_backend_error(struct run *run, const char *path, const struct nvtxt_loc *loc, const char *msg);
/*
 * chrome_origin.c: the origin of a merged --emit=chrome of files[0..n):
 * the earliest of their heads (each file's first event whose time
 * converts to nanoseconds by opt's rules), rounded toward zero to a whole
 * second, in *origin; false when no file has a head (standard input has
 * none).  Reports nothing.
 */
bool chrome_merged_origin(const struct options *opt, char **files, int n, int64_t *origin);
/* cmd_stats.c: stats */
int run_stats(struct run *run, char **files, int nfiles);
/* cmd_fmt.c */
int run_fmt(struct run *run, char **files, int nfiles);
/* cmd_info.c: info */
int run_info(struct run *run, char **files, int nfiles);
/* cmd_payload.c: dump, replay */
int run_dump(struct run *run, char **files, int nfiles);
int run_replay(struct run *run, char **files, int nfiles);
/* cmd_lsp.c: the language server (src/lsp/), no operands */
int run_lsp(struct run *run, char **operands, int noperands);

/* input.c: reading inputs, compiling one file, driver messages. */

/*
 * The driver's messages go through the sink: io_error is an error of check
 * io-error about `file` (NULL: the run as a whole); any other check and
 * severity through nvtxt_diag_report_unlocated (diag.h).
 */
void io_error(const struct nvtxt_diag_sink *sink, const char *file, const char *fmt, ...)
	NVTXT_PRINTF(3, 4);

/* The name diagnostics give `path` ("-": standard input, --stdin-name). */
const char *input_display(const struct options *opt, const char *path);
/* True for standard input without --stdin-name: an input with no path (SARIF names no file). */
bool input_unnamed(const struct options *opt, const char *path);
/*
 * Records the size of input `display` (fd, a regular file) in its entry of
 * the JSON or SARIF document: a finding about the file as a whole spans
 * it (SARIF).  Nothing for a text sink or another kind of file.
 */
void report_size(const struct nvtxt_diag_sink *sink, const char *display, int fd);
/*
 * Opens an input ("-": standard input, returned as fd 0 with *is_stdin).
 * Reports why not through sink and returns -1 when it cannot be read.
 */
int open_input(const char *path, bool *is_stdin, const struct nvtxt_diag_sink *sink);

/*
 * Checks one file (NVTXT, or a payload through its normal form) and hands
 * its calls to `be` (NULL: lint only); diagnostics go to sink, counts to
 * *totals.  Returns the exit status of the file.
 */
/*
 * `out` is the stream the back end writes (NULL for lint), called out_name
 * in messages: a write error names it, a read error names the input.
 */
struct output_ref {
	FILE *out;
	const char *name; /* NULL: standard output */
	/*
	 * The back end tells its own errors of the input (a time it cannot
	 * convert: struct emitter's error, nvtxt_stats_error) with their place;
	 * else the compile's named status is reported from its message
	 * (nvtxt_status_message).
	 */
	bool tells_input_errors;
};
/* Reports a failed write to out (errno err): its file, or standard output in write_error_stdout's words. */
void output_error(const struct nvtxt_diag_sink *sink, const struct output_ref *out, int err);
int check_file(const struct options *opt, const struct nvtxt_diag_sink *sink,
	       struct totals *totals, const char *path, const struct nvtxt_backend *be,
	       const struct output_ref *out);
/* check_file of an input whose entry of the JSON or SARIF document is made (lint --fix's check after the fixes). */
int check_file_again(const struct options *opt, const struct nvtxt_diag_sink *sink,
		     struct totals *totals, const char *path);
/* Compiles fd (from its current offset) like check_file; fmt != NULL: syntax mode for fmt. */
struct nvtxt_fmt;
int compile_one(const struct options *opt, const struct nvtxt_diag_sink *sink,
		struct totals *totals, const char *path, int fd, const char *display,
		const struct nvtxt_backend *be, struct nvtxt_fmt *fmt, const struct output_ref *out);

/*
 * A file that is not text: the first TEXT_PROBE bytes hold a NUL byte and
 * another control character (nvtxtc(1)).  binary_offset returns the
 * offset of the first NUL of such bytes, or -1; not_text reports it as an
 * error of check encoding (counted in totals) and returns true.
 */
enum { TEXT_PROBE = 8192 };
long long binary_offset(const unsigned char *p, size_t n);
bool not_text(const struct nvtxt_diag_sink *sink, struct totals *totals, const char *display,
	      const unsigned char *p, size_t n);
/* One error about a whole input (just reported) counted in totals and in the JSON or SARIF report's entry of display. */
void count_input_error(const struct nvtxt_diag_sink *sink, struct totals *totals, const char *display);

/* A payload file being read as a stream (nvtxt_payload_reader_new). */
struct payload_file {
	struct nvtxt_payload_reader *r;
	int fd;
	unsigned char prefix[8];   /* bytes already read from fd, handed out first */
	size_t nprefix, prefix_off;
	const char *display;
};
/*
 * Opens a payload reader on fd from its current position (a file, a pipe
 * or a FIFO), after the nprefix bytes already read from it at `prefix`,
 * and checks the header; the sections are checked as they are consumed.
 * pf must stay where it is while the reader is used.  Returns 0; 1 for an
 * invalid header; 2 on a read error (reported).
 */
int payload_load(int fd, const void *prefix, size_t nprefix, const char *display,
		 struct payload_file *pf, const struct nvtxt_diag_sink *sink);
/*
 * Reports the failure `rc` (NVTXT_PAYLOAD_EFORMAT or _EIO) of a function
 * that consumed pf's reader, with its message err; returns the exit
 * status (1 or 2).
 */
int payload_report(const struct payload_file *pf, int rc, const char *err,
		   const struct nvtxt_diag_sink *sink);
void payload_free(struct payload_file *pf);

/*
 * Copies `from` (rewound) to `to`, after what `to` holds (flushed first),
 * through sendfile(2) when `from` is a regular file and `to` a descriptor
 * that takes it, else through stdio; 0, or -1 with errno set.
 */
int copy_stream(FILE *from, FILE *to);
/* True when the contents of fd (from offset 0) equal those of f. */
bool same_contents(int fd, FILE *f);
/*
 * An unnamed temporary file (a spool: fmt's text, lint --fix's passes, a
 * written-through output's new text) open for reading and writing, in
 * $TMPDIR (an absolute, writable directory) or else /tmp, which *dir
 * names; its descriptor is inherited by children (diff reads it as
 * /dev/fd/N).
 * NULL with errno set when it cannot be made.
 */
FILE *temp_stream(const char **dir);
/*
 * Copies what is left to read on fd (standard input, a pipe) to an
 * unnamed temporary file made by temp_stream; its fd at offset 0, or -1.
 */
int spool_fd(int fd);
/* The same as a stream, rewound; NULL with errno set. */
FILE *spool_stream(int fd);

#endif
