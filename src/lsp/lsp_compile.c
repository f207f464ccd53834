/*
 * lsp_compile.c - compiling a document held in memory: the one place where
 * the server calls the library (nvtxt_compile reading its text from memory,
 * compile.h, nvtxt_compile_options.text), so that no change ever goes
 * through a file or a subprocess.
 */
#include "lsp_int.h"

int lsp_compile_text(const char *text, size_t len, struct nvtxt_compile_options *co,
		     struct nvtxt_compile_result *res)
{
	co->fd = -1;
	co->text = text;
	co->text_len = len;
	return nvtxt_compile(co, res);
}
