/*
 * output_stream.h - the stream of an output's temporary (output.c):
 * written in pieces of OUTPUT_PIECE bytes at offsets that are multiples
 * of it (the page cache then takes each in large folios: 106 MB cost
 * the kernel 27-30 ms so against 38-39 ms in the 8 KiB and 56 KiB
 * writes that glibc's stdio buffer made; bench/README.md), with the kernel asked
 * every 8 MiB to start writing the file back, so that the fsync of the
 * commit waits for the last few MiB only.
 *
 * Write-behind: when the caller allows it (a processor to spare, as for
 * the read-ahead of nvtxt_compile), a full piece is handed to a second
 * thread that writes it while the caller fills the next; at most
 * OUTPUT_PIECES pieces exist (the caller waits for one to be written
 * when all are full).  The thread starts with the first full piece, so an
 * output under OUTPUT_PIECE bytes never has one.  A write that fails is
 * reported by the stream's next write or by output_stream_drain, with its
 * errno; the pieces after it are not written.
 *
 * Not thread-safe: one thread writes to the stream (the writer thread is
 * the stream's own).
 */
#ifndef NVTXT_OUTPUT_STREAM_H
#define NVTXT_OUTPUT_STREAM_H

#include <stdbool.h>
#include <stdio.h>

enum { OUTPUT_PIECE = 256 << 10, OUTPUT_PIECES = 8 };

struct output_stream;

/*
 * A stream writing to fd, from its current offset 0; write_behind lets a
 * second thread do the writes (see above).  *state gets the stream's state
 * for output_stream_drain, valid until fclose.  Returns the stream, or NULL
 * with errno set (ENOMEM); on success fd belongs to it (fclose closes it).
 */
FILE *output_stream_open(int fd, bool write_behind, struct output_stream **state);

/*
 * Writes every byte written to the stream so far into the file and waits
 * for that (not for the disk: fsync does).  Returns 0, or the errno value
 * of the first write that failed.
 */
int output_stream_drain(struct output_stream *s);

#endif
