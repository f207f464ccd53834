/*
 * fuzz_fast_paths.c - libFuzzer target: the fast paths against the
 * reference.  Every input is compiled with the fast paths (the line scanner
 * of src/frontend/fast_line.c, the call plans of src/passes/sema.c) and without them
 * (nvtxt_compile_options.no_fast_paths), in check mode (diagnostics as
 * printed, then the canonical NVTXT of the events) and in syntax mode (a
 * dump of every field of every AST node); aborts at any difference.
 *
 * The options vary with the input as in fuzz_frontend (fuzz_pick_mode).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_mode mode = fuzz_pick_mode(data, size);

	if (!fuzz_fast_paths_agree(data, size, &mode))
		abort();
	return 0;
}
