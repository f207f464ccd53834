/*
 * fmt.c - the layout formatter.
 */
#include "fmt.h"

static void put_value(FILE *out, const struct nvtxt_value *v)
{
	switch (v->quote) {
	case '"':
	case '\'':
		putc(v->quote, out);
		fwrite(v->text.ptr, 1, v->text.len, out);
		putc(v->quote, out);
		break;
	case '$':
		putc('$', out);
		fwrite(v->text.ptr, 1, v->text.len, out);
		break;
	default:
		fwrite(v->text.ptr, 1, v->text.len, out);
		break;
	}
}

void nvtxt_fmt_instruction(void *user, const struct nvtxt_instr *in)
{
	struct nvtxt_fmt *f = user;
	FILE *out = f->out;
	size_t len;

	if (in->broken)
		return;
	if (in->kind == NVTXT_I_BLANK) {
		f->pending_blank++;
		return;
	}
	if (f->printed && f->pending_blank)
		putc('\n', out);
	f->pending_blank = 0;
	f->printed = true;
	switch (in->kind) {
	case NVTXT_I_COMMENT:
		len = in->name.len;
		while (len && (in->name.ptr[len - 1] == ' ' || in->name.ptr[len - 1] == '\t'))
			len--;
		fwrite(in->name.ptr, 1, len, out);
		break;
	case NVTXT_I_ASSIGNMENT:
		fwrite(in->name.ptr, 1, in->name.len, out);
		fputs(" = ", out);
		put_value(out, &in->values[0]);
		break;
	case NVTXT_I_DEFINITION:
		putc('@', out);
		fwrite(in->name.ptr, 1, in->name.len, out);
		for (size_t i = 0; i < in->nargs; i++) {
			fputs(", ", out);
			fwrite(in->args[i].ptr, 1, in->args[i].len, out);
		}
		break;
	case NVTXT_I_CALL:
		fwrite(in->name.ptr, 1, in->name.len, out);
		for (size_t i = 0; i < in->nvalues; i++) {
			putc(',', out);
			if (in->values[i].kind != NVTXT_V_ABSENT) {
				putc(' ', out);
				put_value(out, &in->values[i]);
			}
		}
		break;
	case NVTXT_I_BLANK:
		break;
	}
	putc('\n', out);
}
