/*
 * emit_nvtxt.c - the normal form printer (nvtxt(5), CANONICAL FORM).
 */
#include <errno.h>
#include <string.h>

#include "emit_nvtxt.h"

/* One output line, built in memory and written with one fwrite (fprintf was 14% of the time). */
struct line {
	FILE *out;
	size_t n;
	char buf[1024];
};

static void put(struct line *l, const char *p, size_t n)
{
	if (l->n + n > sizeof(l->buf)) {
		fwrite(l->buf, 1, l->n, l->out);
		l->n = 0;
		if (n > sizeof(l->buf)) {
			fwrite(p, 1, n, l->out);
			return;
		}
	}
	memcpy(l->buf + l->n, p, n);
	l->n += n;
}

static void put_char(struct line *l, char c)
{
	put(l, &c, 1);
}

static void put_u64(struct line *l, uint64_t v)
{
	char d[20];
	size_t i = sizeof(d);
	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	put(l, d + i, sizeof(d) - i);
}

static void put_i64(struct line *l, int64_t v)
{
	if (v < 0) {
		put_char(l, '-');
		put_u64(l, 0 - (uint64_t)v);
	} else {
		put_u64(l, (uint64_t)v);
	}
}

static void put_string(struct line *l, struct nvtxt_str s)
{
	char q = memchr(s.ptr, '"', s.len) ? '\'' : '"';
	put_char(l, q);
	put(l, s.ptr, s.len);
	put_char(l, q);
}

static void put_value(struct line *l, const struct nvtxt_event *ev, enum nvtxt_arg arg)
{
	static const char hex[] = "0123456789ABCDEF";
	char color[10];

	switch (arg) {
	case NVTXT_ARG_TIME:
		put_i64(l, ev->time);
		break;
	case NVTXT_ARG_START:
		put_i64(l, ev->start);
		break;
	case NVTXT_ARG_END:
		put_i64(l, ev->end);
		break;
	case NVTXT_ARG_TIMEBASE: {
		const char *tb = nvtxt_timebase_name(ev->timebase);
		put_string(l, (struct nvtxt_str){ tb, strlen(tb) });
		break;
	}
	case NVTXT_ARG_PROCESS_ID:
		put_i64(l, ev->process_id);
		break;
	case NVTXT_ARG_THREAD_ID:
		put_i64(l, ev->thread_id);
		break;
	case NVTXT_ARG_CATEGORY_ID:
		put_u64(l, ev->category_id);
		break;
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		put_u64(l, ev->parent_category_id);
		break;
	case NVTXT_ARG_COLOR:
		color[0] = '0';
		color[1] = 'x';
		for (int i = 0; i < 8; i++)
			color[2 + i] = hex[(ev->color >> (28 - 4 * i)) & 15];
		put(l, color, sizeof(color));
		break;
	case NVTXT_ARG_MESSAGE:
		put_string(l, ev->message);
		break;
	case NVTXT_ARG_NAME:
		put_string(l, ev->name);
		break;
	case NVTXT_ARG_PAYLOAD:
		put_i64(l, ev->payload);
		break;
	case NVTXT_ARG_COUNT:
		break;
	}
}

void nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(ev->command, args);
	const char *name = nvtxt_command_name(ev->command);
	struct line l;

	l.out = out;
	l.n = 0;
	put(&l, name, strlen(name));
	for (size_t i = 0; i < n; i++) {
		put_char(&l, ',');
		if (ev->present & NVTXT_BIT(args[i])) {
			put_char(&l, ' ');
			put_value(&l, ev, args[i]);
		}
	}
	put_char(&l, '\n');
	fwrite(l.buf, 1, l.n, out);
}

static int emit_event(void *user, const struct nvtxt_event *ev)
{
	FILE *out = user;
	nvtxt_emit_nvtxt_event(out, ev);
	if (ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

static int emit_finish(void *user)
{
	FILE *out = user;
	if (fflush(out) != 0 || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

struct nvtxt_backend nvtxt_emit_nvtxt_backend(FILE *out)
{
	return (struct nvtxt_backend){ .user = out, .event = emit_event, .finish = emit_finish };
}
