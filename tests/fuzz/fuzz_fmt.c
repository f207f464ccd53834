/*
 * fuzz_fmt.c - libFuzzer target for the layout formatter (nvtxtc fmt):
 * nvtxt_compile in syntax mode with nvtxt_fmt_instruction.
 *
 * Properties (nvtxtc(1), fmt: it "never changes what a file means"): when
 * the input parses (syntax mode returns 0), its formatted text
 *   - parses again and formats to itself (idempotence);
 *   - when the input lints clean, lints clean too and has the same normal
 *     form as the input;
 *   - in any case, has as many errors and warnings as the input, and the
 *     same normal form (the events of its lines without errors).
 * The first run's options vary with the input (fuzz_pick_mode); the check
 * mode runs compare the input and its fmt output under the same options.
 * Aborts otherwise.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_out f1, f2, n0, n1;
	struct fuzz_mode mode = fuzz_pick_mode(data, size);

	fuzz_compile_mode(data, size, true, &mode, &f1);
	mode.pipe = false;
	if (f1.status == 0) {
		fuzz_compile(f1.text, f1.len, true, &f2);
		if (f2.status != 0) {
			fprintf(stderr, "fmt output does not parse (%lu errors):\n%.*s\n", f2.res.errors,
				(int)(f1.len > 4000 ? 4000 : f1.len), f1.text);
			abort();
		}
		fuzz_same("fmt output and fmt of fmt output", &f1, &f2);
		free(f2.text);

		fuzz_compile_mode(data, size, false, &mode, &n0);
		fuzz_compile_mode(f1.text, f1.len, false, &mode, &n1);
		if (n0.res.errors == 0 && n1.res.errors != 0) {
			fprintf(stderr, "fmt output of a clean input has %lu errors:\n%.*s\n",
				n1.res.errors, (int)(f1.len > 4000 ? 4000 : f1.len), f1.text);
			abort();
		}
		if (n0.res.errors != n1.res.errors || n0.res.warnings != n1.res.warnings) {
			fprintf(stderr, "input: %lu errors, %lu warnings; its fmt output: %lu errors, %lu warnings:\n%.*s\n",
				n0.res.errors, n0.res.warnings, n1.res.errors, n1.res.warnings,
				(int)(f1.len > 4000 ? 4000 : f1.len), f1.text);
			abort();
		}
		fuzz_same("normal form of the input and of its fmt output", &n0, &n1);
		free(n1.text);
		free(n0.text);
	}
	free(f1.text);
	return 0;
}
