/*
 * fmt.c - the layout formatter.
 */
#include <string.h>

#include "fmt.h"

/* Output goes through f->buf, written to f->out when full and by nvtxt_fmt_flush. */
static void flush(struct nvtxt_fmt *f)
{
	if (f->hold) {
		/* the output does not fit: on into the spill stream, else stop formatting */
		FILE *s = f->spill ? f->spill(f->spill_user) : NULL;
		if (!s) {
			f->overflow = true;
			return;
		}
		f->out = s;
		f->hold = false;
	}
	if (f->n)
		fwrite(f->buf, 1, f->n, f->out);
	f->n = 0;
}

static void put(struct nvtxt_fmt *f, const char *p, size_t n)
{
	if (n > sizeof(f->buf) - f->n) {
		flush(f);
		if (f->overflow)
			return;
		if (n > sizeof(f->buf)) {
			fwrite(p, 1, n, f->out);
			return;
		}
	}
	memcpy(f->buf + f->n, p, n);
	f->n += n;
}

static void put_char(struct nvtxt_fmt *f, char c)
{
	if (f->n == sizeof(f->buf)) {
		flush(f);
		if (f->overflow)
			return;
	}
	f->buf[f->n++] = c;
}

int nvtxt_fmt_flush(struct nvtxt_fmt *f)
{
	if (!f->out || f->hold)
		return 0;
	flush(f);
	return ferror(f->out) ? -1 : 0;
}

static void put_value(struct nvtxt_fmt *f, const struct nvtxt_value *v)
{
	switch (v->quote) {
	case '"':
	case '\'':
		put_char(f, v->quote);
		put(f, v->text.ptr, v->text.len);
		put_char(f, v->quote);
		break;
	case '$':
		put_char(f, '$');
		put(f, v->text.ptr, v->text.len);
		break;
	default:
		put(f, v->text.ptr, v->text.len);
		break;
	}
}

/* A blank line before the next one, if blank lines came since the last one printed. */
static void start_line(struct nvtxt_fmt *f)
{
	if (f->printed && f->pending_blank)
		put_char(f, '\n');
	f->pending_blank = 0;
	f->printed = true;
}

void nvtxt_fmt_tokens(struct nvtxt_fmt *f, bool assignment, struct nvtxt_str name,
		      const struct nvtxt_str *tokens, size_t n)
{
	size_t need = name.len + 4;
	char *p;

	if (f->overflow || (!f->out && !f->hold))
		return;
	start_line(f);
	for (size_t i = 0; i < n; i++)
		need += tokens[i].len + 2;
	if (need > sizeof(f->buf) - f->n) {
		/* no room in the buffer: piece by piece */
		put(f, name.ptr, name.len);
		for (size_t i = 0; i < n; i++) {
			if (assignment)
				put(f, " = ", 3);
			else if (tokens[i].ptr)
				put(f, ", ", 2);
			put(f, tokens[i].ptr ? tokens[i].ptr : ",", tokens[i].ptr ? tokens[i].len : 1);
		}
		put_char(f, '\n');
		return;
	}
	p = f->buf + f->n;
	memcpy(p, name.ptr, name.len);
	p += name.len;
	for (size_t i = 0; i < n; i++) {
		if (!tokens[i].ptr) {
			*p++ = ',';
			continue;
		}
		memcpy(p, assignment ? " = " : ", ", assignment ? 3 : 2);
		p += assignment ? 3 : 2;
		memcpy(p, tokens[i].ptr, tokens[i].len);
		p += tokens[i].len;
	}
	*p++ = '\n';
	f->n = (size_t)(p - f->buf);
}

void nvtxt_fmt_instruction(void *user, const struct nvtxt_instr *in)
{
	struct nvtxt_fmt *f = user;
	size_t len;

	if (in->broken || f->overflow || (!f->out && !f->hold))
		return;
	if (in->kind == NVTXT_I_BLANK) {
		f->pending_blank++;
		return;
	}
	start_line(f);
	switch (in->kind) {
	case NVTXT_I_COMMENT:
		len = in->name.len;
		while (len && (in->name.ptr[len - 1] == ' ' || in->name.ptr[len - 1] == '\t'))
			len--;
		put(f, in->name.ptr, len);
		break;
	case NVTXT_I_ASSIGNMENT:
		put(f, in->name.ptr, in->name.len);
		put(f, " = ", 3);
		put_value(f, &in->values[0]);
		break;
	case NVTXT_I_DEFINITION:
		put_char(f, '@');
		put(f, in->name.ptr, in->name.len);
		for (size_t i = 0; i < in->nargs; i++) {
			put(f, ", ", 2);
			put(f, in->args[i].ptr, in->args[i].len);
		}
		break;
	case NVTXT_I_CALL:
		put(f, in->name.ptr, in->name.len);
		for (size_t i = 0; i < in->nvalues; i++) {
			if (in->values[i].kind != NVTXT_V_ABSENT) {
				put(f, ", ", 2);
				put_value(f, &in->values[i]);
			} else {
				put_char(f, ',');
			}
		}
		break;
	case NVTXT_I_BLANK:
		break;
	}
	put_char(f, '\n');
}
