/*
 * fuzz_payload.c - libFuzzer target for the payload reader
 * (nvtxt-payload(5)): nvtxt_payload_open on arbitrary bytes, then
 * nvtxt_payload_decompile into the canonical NVTXT back end and, on a
 * second reader that gets the bytes a few at a time, into the payload
 * writer; a third reader dumps them into a memstream.
 *
 * Properties: open either succeeds or fails with a non-empty one-line
 * message, and so do decompile and dump, and the three readers agree on
 * whether the bytes are a payload file; the decompiled text is a normal
 * form (it compiles with no errors to exactly itself, when the rules of
 * nvtxt(5) that span calls hold); and what the reader accepts re-encodes,
 * reader -> writer, to the same bytes: one meaning, one encoding.  The
 * bytes are copied to an exactly sized heap block at an odd address, so
 * AddressSanitizer sees any read past the end and alignment assumptions
 * show up under UBSan.  And an accepted file's calls checked without text
 * (nvtxt_payload_compile) give the diagnostics, status and output that
 * compiling their normal form gives, read in two threads (read_ahead).
 */
#include "fuzz_common.h"
#include "nvtxt/payload.h"
#include "nvtxt/compile.h"

static void one_line(const char *what, const char *err, size_t errlen)
{
	if (!memchr(err, '\0', errlen) || err[0] == '\0' || strchr(err, '\n')) {
		fprintf(stderr, "%s failed without a one-line message\n", what);
		abort();
	}
}

/* A source that hands out 1 to 9 bytes a call. */
struct trickle {
	const unsigned char *p;
	size_t n, off;
};

static ptrdiff_t trickle_read(void *user, void *buf, size_t n)
{
	struct trickle *t = user;
	size_t k = 1 + (t->off * 7) % 9;

	if (k > n)
		k = n;
	if (k > t->n - t->off)
		k = t->n - t->off;
	memcpy(buf, t->p + t->off, k);
	t->off += k;
	return (ptrdiff_t)k;
}

/* A sink that keeps each diagnostic's check, severity, line and message. */
static void keep_diag(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	FILE *f = user;

	(void)src;
	fprintf(f, "%d %d %u %s\n", (int)d->check, (int)d->severity, d->loc.line, d->message);
	for (size_t i = 0; i < d->nnotes; i++)
		fprintf(f, "  note %u %s\n", d->notes[i].loc.line, d->notes[i].message);
}

/*
 * The calls of an accepted payload checked without text (nvtxt_payload_compile,
 * what lint and --emit=nvtxt of a payload do) and through its normal form
 * (nvtxt_compile of the decompiled text, what they did before): the same
 * diagnostics at the same lines, the same status and the same output.
 */
static void same_as_text(const unsigned char *copy, size_t size, const char *text, size_t len)
{
	struct nvtxt_diag_config cfg;
	struct nvtxt_payload_reader *r;
	struct nvtxt_compile_result res;
	struct nvtxt_emit_nvtxt *w;
	struct nvtxt_backend be;
	char *d1 = NULL, *d2 = NULL, *o1 = NULL, *o2 = NULL, err[512];
	size_t l1 = 0, l2 = 0, n1 = 0, n2 = 0;
	FILE *f1 = open_memstream(&d1, &l1), *f2 = open_memstream(&d2, &l2);
	FILE *m1 = open_memstream(&o1, &n1), *m2 = open_memstream(&o2, &n2);
	struct nvtxt_compile_options co = { .display_name = "fuzz", .diag_config = &cfg };
	int st1, st2, fd;

	if (!f1 || !f2 || !m1 || !m2)
		abort();
	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 0;
	if (nvtxt_payload_open(&r, copy, size, err, sizeof err) != 0)
		abort();
	w = nvtxt_emit_nvtxt_new(m1);
	be = nvtxt_emit_nvtxt_backend(w);
	co.backend = &be;
	co.sink = (struct nvtxt_diag_sink){ f1, keep_diag };
	co.read_ahead = true; /* a second thread reads and checks the sections */
	st1 = nvtxt_payload_compile(r, &co, &res, err, sizeof err);
	nvtxt_emit_nvtxt_free(w);
	nvtxt_payload_reader_free(r);

	fd = fuzz_input_fd(text, len, false);
	w = nvtxt_emit_nvtxt_new(m2);
	be = nvtxt_emit_nvtxt_backend(w);
	co.fd = fd;
	co.sink = (struct nvtxt_diag_sink){ f2, keep_diag };
	st2 = nvtxt_compile(&co, &res);
	nvtxt_emit_nvtxt_free(w);
	fclose(f1);
	fclose(f2);
	fclose(m1);
	fclose(m2);
	if (st1 != st2 || l1 != l2 || memcmp(d1, d2, l1) || n1 != n2 || memcmp(o1, o2, n1)) {
		fprintf(stderr, "a payload's calls checked without text (status %d):\n%s\n"
			"and through its normal form (status %d):\n%s\ndiffer (outputs of %zu and %zu bytes)\n",
			st1, d1, st2, d2, n1, n2);
		abort();
	}
	free(d1);
	free(d2);
	free(o1);
	free(o2);
}

/*
 * The bytes checked as lint does in two threads (read_ahead: a second
 * thread reads and checks the sections): the format error of
 * nvtxt_payload_decompile in one thread (rc, err), or none.
 */
static void same_in_two_threads(const unsigned char *copy, size_t size, int rc, const char *err)
{
	struct nvtxt_diag_config cfg;
	struct nvtxt_payload_reader *r;
	struct nvtxt_compile_result res;
	char *d = NULL, e2[512];
	size_t l = 0;
	FILE *f = open_memstream(&d, &l);
	struct nvtxt_compile_options co = { .display_name = "fuzz", .diag_config = &cfg,
					    .read_ahead = true };
	int st;

	if (!f)
		abort();
	nvtxt_diag_config_init(&cfg);
	co.sink = (struct nvtxt_diag_sink){ f, keep_diag };
	if (nvtxt_payload_open(&r, copy, size, e2, sizeof e2) != 0)
		abort();
	st = nvtxt_payload_compile(r, &co, &res, e2, sizeof e2);
	nvtxt_payload_reader_free(r);
	fclose(f);
	free(d);
	if (rc ? st != NVTXT_PAYLOAD_EFORMAT || strcmp(err, e2) : st < 0) {
		fprintf(stderr, "read in two threads: status %d, \"%s\"; in one: %d, \"%s\"\n",
			st, st < 0 ? e2 : "", rc, rc ? err : "");
		abort();
	}
}

/*
 * 1. The accepted bytes decompiled to NVTXT: a format error or none (the
 * return of nvtxt_payload_decompile, its message in err), never an I/O
 * error; the same in two threads; text that compiles without errors is
 * its own normal form and checks as the calls do without text.
 */
static int decompiled(const unsigned char *copy, size_t size, char *err, size_t errsize)
{
	struct nvtxt_payload_reader *r;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct nvtxt_emit_nvtxt *w = mem ? nvtxt_emit_nvtxt_new(mem) : NULL;
	struct nvtxt_backend be;
	int rc;

	if (!w || nvtxt_payload_open(&r, copy, size, err, errsize) != 0)
		abort();
	be = nvtxt_emit_nvtxt_backend(w);
	memset(err, 'x', errsize);
	rc = nvtxt_payload_decompile(r, &be, err, errsize);
	if (rc == NVTXT_PAYLOAD_EIO) {
		fprintf(stderr, "nvtxt_payload_decompile: not a format error: %s\n", err);
		abort();
	}
	if (rc)
		one_line("nvtxt_payload_decompile", err, errsize);
	nvtxt_emit_nvtxt_free(w);
	fclose(mem);
	nvtxt_payload_reader_free(r);
	same_in_two_threads(copy, size, rc, err);
	if (rc == 0) {
		/*
		 * The reader checks the binary layout; the rules of nvtxt(5)
		 * that span calls are checked by compiling the decompiled text,
		 * as the driver does (a byte-patched category tree may break
		 * them).  Text that compiles without errors must be its own
		 * normal form.
		 */
		struct fuzz_out nf = { .text = text, .len = len }, again;
		fuzz_compile(text, len, false, &again);
		if (again.res.errors == 0)
			fuzz_same("decompiled payload and its normal form", &nf, &again);
		free(again.text);
		same_as_text(copy, size, text, len);
	}
	free(text);
	return rc;
}

/*
 * 2. Read a few bytes at a time and written again: accepted alike (rc is
 * decompiled's), and then to the same bytes.
 */
static void reencoded(const unsigned char *copy, size_t size, int rc)
{
	struct trickle t = { copy, size, 0 };
	struct nvtxt_payload_reader *r;
	struct nvtxt_payload_writer *pw;
	struct nvtxt_backend be;
	char err[512], *bin;
	size_t blen;
	FILE *mem;
	int rc2;

	if (nvtxt_payload_reader_new(&r, trickle_read, &t, err, sizeof err) != 0)
		abort(); /* the header passed nvtxt_payload_open */
	mem = tmpfile(); /* the writer seeks back to its header: a memstream would lose the rest */
	pw = mem ? nvtxt_payload_writer_new(mem) : NULL;
	if (!pw)
		abort();
	be = nvtxt_payload_backend(pw);
	rc2 = nvtxt_payload_decompile(r, &be, err, sizeof err);
	nvtxt_payload_writer_free(pw);
	nvtxt_payload_reader_free(r);
	blen = (size_t)ftell(mem);
	bin = malloc(blen + 1);
	rewind(mem);
	if (!bin || fread(bin, 1, blen, mem) != blen)
		abort();
	fclose(mem);
	if ((rc == 0) != (rc2 == 0)) {
		fprintf(stderr, "a reader of a few bytes at a time disagrees: %d, %d: %s\n", rc, rc2, err);
		abort();
	}
	if (rc == 0 && (blen != size || memcmp(bin, copy, size) != 0)) {
		size_t i = 0;
		while (i < blen && i < size && bin[i] == (char)copy[i])
			i++;
		fprintf(stderr, "accepted, but re-encodes to other bytes: %zu bytes, %zu written, "
			"first difference at %zu\n", size, blen, i);
		abort();
	}
	free(bin);
}

/* 3. Dumped: accepted as decompiled's rc says. */
static void dumped(const unsigned char *copy, size_t size, int rc)
{
	struct nvtxt_payload_reader *r;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *mem;
	int rc2;

	if (nvtxt_payload_open(&r, copy, size, err, sizeof err) != 0)
		abort();
	mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	rc2 = nvtxt_payload_dump(r, mem, err, sizeof err);
	fclose(mem);
	free(text);
	(void)nvtxt_payload_display_name(r);
	nvtxt_payload_reader_free(r);
	if ((rc == 0) != (rc2 == 0)) {
		fprintf(stderr, "dump and decompile disagree: %d, %d: %s\n", rc, rc2, err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvtxt_payload_reader *r = (void *)1;
	char err[512];
	unsigned char *block = malloc(size + 1);
	unsigned char *copy = block + 1;
	int rc;

	if (!block)
		return 0;
	if (size)
		memcpy(copy, data, size);
	memset(err, 'x', sizeof err);
	if (nvtxt_payload_open(&r, copy, size, err, sizeof err) != 0) {
		if (r != NULL)
			abort();
		one_line("nvtxt_payload_open", err, sizeof err);
		free(block);
		return 0;
	}
	nvtxt_payload_reader_free(r);
	rc = decompiled(copy, size, err, sizeof err);
	reencoded(copy, size, rc);
	dumped(copy, size, rc);
	free(block);
	return 0;
}
