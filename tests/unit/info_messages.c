/*
 * info_messages.c - unit test of nvtxtc info's count of distinct messages
 * (src/backends/info.c, the table of msg_words and msg_hash in
 * info_data.h): a message is counted once whatever its length, and two
 * messages are one only when their bytes are.  The table is probed from
 * a message's slot and grows at half full, so the cases are the ones
 * its shortcuts could get wrong: messages whose slots collide (found by
 * searching for hashes with the same top bits, the first chain ending at
 * the last slot so that its probe wraps around) before and after the
 * table grows; messages that share their first and last 16 bytes and
 * length and differ in the bytes between (more than 32 bytes); every
 * length from 0 to 80 with one byte changed at each place; the empty
 * message; events without one.  Each count is checked against a plain
 * list compared with memcmp.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "info_data.h"
#include "tap.h"

#define MAXMSG 20000

static struct {
	char *p;
	size_t n;
} seen[MAXMSG];
static size_t nseen;
/* Feeds one Marker with message p[0..n) (none when p is NULL and n is 1), and keeps it in the plain list. */
static void feed(struct nvtxt_backend *be, const char *p, size_t n)
{
	struct nvtxt_event ev = { .command = NVTXT_CMD_MARKER, .timebase = NVTXT_TB_MANUAL, .time = 7,
				  .process_id = 1, .thread_id = 2 };
	size_t i;

	ev.present = NVTXT_BIT(NVTXT_ARG_TIME) | NVTXT_BIT(NVTXT_ARG_TIMEBASE) | NVTXT_BIT(NVTXT_ARG_PROCESS_ID) |
		     NVTXT_BIT(NVTXT_ARG_THREAD_ID);
	if (p || n == 0) {
		ev.present |= NVTXT_BIT(NVTXT_ARG_MESSAGE);
		ev.message = (struct nvtxt_str){ p, n };
		for (i = 0; i < nseen; i++)
			if (seen[i].n == n && (n == 0 || memcmp(seen[i].p, p, n) == 0))
				break;
		if (i == nseen && nseen < MAXMSG) {
			seen[nseen].p = malloc(n + 1);
			if (n)
				memcpy(seen[nseen].p, p, n);
			seen[nseen++].n = n;
		}
	}
	be->event(be->user, &ev);
}

/* The message in buf (cap bytes) of the given length: random letters from seed. */
static size_t random_message(char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + tap_rand() % 26);
	return n;
}

/* Feeds count random messages of length n whose slot in a table of 2^bits slots is `slot`. */
static void feed_colliding(struct nvtxt_backend *be, size_t n, unsigned bits, uint64_t slot, int count,
			   char (*kept)[64])
{
	char buf[64];

	for (int got = 0; got < count;) {
		random_message(buf, n);
		if (msg_hash(msg_words(buf, n), buf, n) >> (64 - bits) != slot)
			continue;
		memcpy(kept[got++], buf, n);
		feed(be, buf, n);
	}
}

int main(void)
{
	struct nvtxt_tconv tc;
	struct nvtxt_info *info;
	struct nvtxt_backend be;
	static char chain[3][15][64];
	char buf[128];

	tap_rng = 88172645463325252ULL; /* this test's own stream */
	nvtxt_tconv_init(&tc);
	info = nvtxt_info_new(&tc);
	be = nvtxt_info_backend(info);

	/* one chain of 15 in the last slot of 64 (it wraps), of 12 bytes; one of 15 in slot 5, of 30 bytes */
	feed_colliding(&be, 12, 6, 63, 15, chain[0]);
	feed_colliding(&be, 30, 6, 5, 15, chain[1]);
	tap_ok(info->msgs_cap == 64 && info->nmsgs == 30, "30 messages in two chains of one slot each (table of %zu)",
	       info->msgs_cap);
	for (int i = 0; i < 15; i++) {
		feed(&be, chain[0][i], 12);
		feed(&be, chain[1][i], 30);
	}
	tap_ok(info->nmsgs == 30, "met again, every message of the chains is found (%zu)", info->nmsgs);
	/* the same chains with one byte changed: new messages, though in the same slots' neighbourhood */
	for (int i = 0; i < 15; i++) {
		chain[0][i][11] ^= 1;
		feed(&be, chain[0][i], 12);
	}
	tap_ok(info->nmsgs == nseen && info->msgs_cap > 64, "one byte changed, 15 more (%zu of %zu), the table grown",
	       info->nmsgs, nseen);
	for (int i = 0; i < 15; i++) {
		feed(&be, chain[0][i], 12);
		feed(&be, chain[1][i], 30);
	}
	tap_ok(info->nmsgs == nseen, "after the growth, every one is still found once (%zu)", info->nmsgs);

	/* a chain in the grown table: messages over 32 bytes that share one slot */
	feed_colliding(&be, 50, (unsigned)(64 - info->msgs_shift), 0, 15, chain[2]);
	for (int i = 0; i < 15; i++)
		feed(&be, chain[2][i], 50);
	tap_ok(info->nmsgs == nseen && info->msgs_cap == 128, "a chain of 15 50-byte messages in the first slot of %zu: %zu",
	       info->msgs_cap, info->nmsgs);

	/* the same first and last 16 bytes and length, the bytes between them differing */
	for (size_t n = 33; n <= 80; n += 47) {
		memset(buf, 'x', n);
		for (size_t at = 16; at < n - 16; at++) {
			buf[at] = 'y';
			feed(&be, buf, n);
			feed(&be, buf, n);
			buf[at] = 'x';
		}
	}
	tap_ok(info->nmsgs == nseen, "messages of equal words and length that differ between them: %zu of %zu",
	       info->nmsgs, nseen);

	/* every length from 0 to 80, and one byte changed at each place */
	for (size_t n = 0; n <= 80; n++) {
		memset(buf, 'm', n);
		feed(&be, n ? buf : NULL, n);
		for (size_t at = 0; at < n; at++) {
			buf[at] = 'M';
			feed(&be, buf, n);
			buf[at] = 'm';
			feed(&be, buf, n);
		}
	}
	tap_ok(info->nmsgs == nseen, "every length 0-80, one byte changed at each place: %zu of %zu", info->nmsgs,
	       nseen);

	/* many random messages of every length, each fed twice: growth after growth */
	for (int i = 0; i < 6000; i++) {
		size_t n = (size_t)(tap_rand() % 70);
		random_message(buf, n);
		feed(&be, buf, n);
		feed(&be, buf, n);
	}
	tap_ok(info->nmsgs == nseen, "6000 random messages, fed twice: %zu of %zu distinct", info->nmsgs, nseen);

	feed(&be, NULL, 1);
	feed(&be, NULL, 1);
	tap_ok(info->nmsgs == nseen && info->no_message == 2, "events without a message are not messages");

	nvtxt_info_free(info);
	for (size_t i = 0; i < nseen; i++)
		free(seen[i].p);
	printf("1..%d\n", tap_count);
	return tap_failed != 0;
}
