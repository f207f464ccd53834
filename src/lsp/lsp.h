/*
 * lsp.h - `nvtxtc lsp`: a Language Server Protocol 3.17 server for NVTXT.
 *
 * Source: Language Server Protocol Specification 3.17 ("Base Protocol",
 * "Lifecycle Messages", "Document Synchronization", "Language Features").
 * Messages are JSON-RPC 2.0 bodies behind a `Content-Length` header; JSON
 * goes only through jansson.  The server compiles documents in-process with
 * nvtxt_compile (lsp_compile.c), one document at a time.
 *
 * The server is a state machine fed with bytes (lsp_server_feed) and woken
 * by time (lsp_server_tick), so the stdio loop (nvtxt_lsp_main) and the
 * fuzz target (tests/fuzz/fuzz_lsp.c) drive the same code.
 */
#ifndef NVTXT_LSP_H
#define NVTXT_LSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lsp_server;

/*
 * A server writing its messages (framed) to `out`, which it does not own
 * and flushes after each message.  Never returns NULL (out of memory
 * exits, as xmalloc does).
 */
struct lsp_server *lsp_server_new(FILE *out);
/*
 * Sets the -W levels and --max-errors that settings start from, and the
 * state of the command line's -W options that their "warnings" continue
 * (both copied; w NULL: no -W option was given).
 */
struct nvtxt_diag_config;
struct nvtxt_warning_options;
void lsp_server_set_base_config(struct lsp_server *s, const struct nvtxt_diag_config *c,
				const struct nvtxt_warning_options *w);
void lsp_server_free(struct lsp_server *s);

/*
 * Hands the server `n` bytes of input (any split of the stream: a message
 * may come in several calls).  Every complete message is answered before
 * it returns.  Returns false once the server has received `exit` (the
 * rest of the input is then ignored).
 */
bool lsp_server_feed(struct lsp_server *s, const void *data, size_t n);

/*
 * The input is idle at time `now_ms` (a monotonic clock in milliseconds):
 * publishes the diagnostics of every document whose debounce delay has
 * passed.  Returns the time of the next due publication, or UINT64_MAX
 * when none is pending.  `force` publishes every pending one at once.
 */
uint64_t lsp_server_tick(struct lsp_server *s, uint64_t now_ms, bool force);

/* The exit status that `exit` asks for: 0 after `shutdown`, else 1 (LSP 3.17, "Exit Notification"). */
int lsp_server_exit_status(const struct lsp_server *s);

/* A monotonic clock in milliseconds. */
uint64_t lsp_now_ms(void);

/*
 * `nvtxtc lsp`: serves standard input and output until `exit` or the end
 * of input.  `initial` (copied; NULL: the defaults) holds the -W levels and
 * --max-errors that the client's settings start from, `initial_warn` (may
 * be NULL) the state of the -W options that gave them, which the
 * settings' "warnings" continue as later -W options would.  Returns the exit
 * status: 0 after shutdown and exit, 1 when the input ends or `exit` comes
 * without `shutdown`, 2 when standard output cannot be opened.  When it
 * stops for a reason other than `exit` (the end of input before shutdown,
 * after it, or in the middle of a message; a read, poll or write error) it
 * writes one line saying so to standard error (lsp_rpc.c).
 */
struct nvtxt_diag_config;
int nvtxt_lsp_serve(const struct nvtxt_diag_config *initial, const struct nvtxt_warning_options *initial_warn);

#endif
