/*
 * fuzz_frontend.c - libFuzzer target for the whole front end: bytes ->
 * nvtxt_compile in check mode (every pass, diagnostics formatted into
 * /dev/null) with the canonical NVTXT back end writing to a memstream.
 *
 * The options vary with the input (fuzz_pick_mode: pipe or file, -Werror,
 * -w, --max-errors, --color).
 *
 * Property (nvtxt(5), CANONICAL FORM): when the input has no errors, its
 * normal form is a fixed point: compiling it again (from a file, same
 * options) gives no errors and exactly the same text.  Aborts otherwise.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_out a, b;
	struct fuzz_mode mode = fuzz_pick_mode(data, size);

	fuzz_compile_mode(data, size, false, &mode, &a);
	if (a.res.errors == 0) {
		mode.pipe = false;
		fuzz_compile_mode(a.text, a.len, false, &mode, &b);
		if (b.res.errors != 0) {
			fprintf(stderr, "the normal form of a clean input has %lu errors:\n%.*s\n",
				b.res.errors, (int)(a.len > 4000 ? 4000 : a.len), a.text);
			abort();
		}
		fuzz_same("normal form and the normal form of the normal form", &a, &b);
		free(b.text);
	}
	free(a.text);
	return 0;
}
