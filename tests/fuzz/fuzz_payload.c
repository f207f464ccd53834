/*
 * fuzz_payload.c - libFuzzer target for the payload reader
 * (nvtxt-payload(5)): nvtxt_payload_open on arbitrary bytes; when it
 * accepts them, nvtxt_payload_dump into a memstream and
 * nvtxt_payload_decompile into the canonical NVTXT back end.
 *
 * Properties: open either succeeds or fails with a non-empty one-line
 * message; dump and decompile of an accepted file succeed (a memstream
 * does not fail); the decompiled text is a normal form: it compiles with
 * no errors to exactly itself.  The bytes are copied to an exactly sized heap block
 * at an odd address, so AddressSanitizer sees any read past the end and
 * alignment assumptions show up under UBSan.
 */
#include "fuzz_common.h"
#include "payload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvtxt_payload_reader *r = (void *)1;
	char err[512];
	unsigned char *block = malloc(size + 1);
	unsigned char *copy = block + 1;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	struct nvtxt_backend be;
	struct nvtxt_emit_nvtxt *w;

	if (!block)
		return 0;
	if (size)
		memcpy(copy, data, size);
	memset(err, 'x', sizeof err);
	if (nvtxt_payload_open(&r, copy, size, err, sizeof err) != 0) {
		if (r != NULL || !memchr(err, '\0', sizeof err) || err[0] == '\0' || strchr(err, '\n')) {
			fprintf(stderr, "nvtxt_payload_open failed without a reader NULL and a one-line message\n");
			abort();
		}
		free(block);
		return 0;
	}
	(void)nvtxt_payload_display_name(r);

	mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	if (nvtxt_payload_dump(r, mem) != 0) {
		fprintf(stderr, "nvtxt_payload_dump failed on a memstream\n");
		abort();
	}
	fclose(mem);
	free(text);

	text = NULL;
	len = 0;
	mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	w = nvtxt_emit_nvtxt_new(mem);
	if (!w)
		abort();
	be = nvtxt_emit_nvtxt_backend(w);
	if (nvtxt_payload_decompile(r, &be, err, sizeof err) != 0) {
		fprintf(stderr, "nvtxt_payload_decompile failed: %s\n", err);
		abort();
	}
	nvtxt_emit_nvtxt_free(w);
	fclose(mem);
	{
		/*
		 * The reader checks the binary layout; the rules of nvtxt(5) are
		 * checked by compiling the decompiled text, as the driver does
		 * (a byte-patched category tree may break them).  Text that
		 * compiles without errors must be its own normal form.
		 */
		struct fuzz_out nf = { .text = text, .len = len }, again;
		fuzz_compile(text, len, false, &again);
		if (again.res.errors == 0)
			fuzz_same("decompiled payload and its normal form", &nf, &again);
		free(again.text);
	}
	free(text);

	nvtxt_payload_reader_free(r);
	free(block);
	return 0;
}
