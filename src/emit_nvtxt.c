/*
 * emit_nvtxt.c - the normal form printer (nvtxt(5), CANONICAL FORM).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "emit_nvtxt.h"

static void put_string(FILE *out, struct nvtxt_str s)
{
	char q = memchr(s.ptr, '"', s.len) ? '\'' : '"';
	putc(q, out);
	fwrite(s.ptr, 1, s.len, out);
	putc(q, out);
}

static void put_value(FILE *out, const struct nvtxt_event *ev, enum nvtxt_arg arg)
{
	switch (arg) {
	case NVTXT_ARG_TIME:
		fprintf(out, "%" PRId64, ev->time);
		break;
	case NVTXT_ARG_START:
		fprintf(out, "%" PRId64, ev->start);
		break;
	case NVTXT_ARG_END:
		fprintf(out, "%" PRId64, ev->end);
		break;
	case NVTXT_ARG_TIMEBASE: {
		const char *tb = nvtxt_timebase_name(ev->timebase);
		put_string(out, (struct nvtxt_str){ tb, strlen(tb) });
		break;
	}
	case NVTXT_ARG_PROCESS_ID:
		fprintf(out, "%" PRId64, ev->process_id);
		break;
	case NVTXT_ARG_THREAD_ID:
		fprintf(out, "%" PRId64, ev->thread_id);
		break;
	case NVTXT_ARG_CATEGORY_ID:
		fprintf(out, "%" PRIu32, ev->category_id);
		break;
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		fprintf(out, "%" PRIu32, ev->parent_category_id);
		break;
	case NVTXT_ARG_COLOR:
		fprintf(out, "0x%08" PRIX32, ev->color);
		break;
	case NVTXT_ARG_MESSAGE:
		put_string(out, ev->message);
		break;
	case NVTXT_ARG_NAME:
		put_string(out, ev->name);
		break;
	case NVTXT_ARG_PAYLOAD:
		fprintf(out, "%" PRId64, ev->payload);
		break;
	case NVTXT_ARG_COUNT:
		break;
	}
}

void nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(ev->command, args);

	fputs(nvtxt_command_name(ev->command), out);
	for (size_t i = 0; i < n; i++) {
		putc(',', out);
		if (ev->present & NVTXT_BIT(args[i])) {
			putc(' ', out);
			put_value(out, ev, args[i]);
		}
	}
	putc('\n', out);
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
