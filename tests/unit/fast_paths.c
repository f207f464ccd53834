/*
 * fast_paths.c - the fast paths (src/frontend/fast_line.c, the call plans of
 * src/passes/sema.c) against the reference (nvtxt_compile_options.no_fast_paths:
 * every line through flex and bison, every call through the full checks).
 *
 * For each input, from a regular file and from a pipe: the same
 * diagnostics as printed, the same canonical NVTXT of the events and the
 * same AST nodes, field by field (tests/fuzz/fuzz_common.h,
 * fuzz_fast_paths_agree).  Inputs: the tricky lines below, one at a time
 * and all together; a file of them larger than the read buffer (lines
 * cut by refills, a line longer than the buffer); and every NVTXT file of
 * tests/, examples/ and ../shared/corpus/.
 */
#include "../fuzz/fuzz_common.h"

#include <dirent.h>
#include <sys/stat.h>

#include "tap.h"

static const char *const lines[] = {
	/* shapes the fast path takes */
	"Marker, 1, \"Qpc\", 1, 2, 3, Blue, \"hello\", 5\n",
	"RangePush, 5123476999, 1, \"reduce_sum [warmup]\"\n",
	"  \tMarker ,1,Qpc,1,2,,,'single \"quoted\"',\n",
	"Marker, +12, Qpc, -0, 0x1F, 0XaB, 0xFFFFFFFF, bare word with  spaces\t , -5\n",
	"Marker, 9223372036854775807, Qpc, 1, 2, 3, 4, x, -9223372036854775808\n",
	"Marker, 999999999999999999, Qpc, 1, 2, 3, 4, x, 1000000000000000000\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\", x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, caf\xC3\xA9 au lait, x\n",
	"Marker, 12 34, Qpc, 1, 2, 3, 4, 12abc, -, +, 0x, 0x1G, -0x5\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, a # not a comment, x\r\n",
	"Marker,,,,,,,,\n",
	"Marker, 1, Qpc, 1, 2,\t,  , \"\", ''\n",
	"ProcessId = 41237\n",
	"Color = Blue\n",
	"TimeBase = ClockMonotonicRaw\r\n",
	"A = $B\n",
	"Msg = \"hello, world\"\n",
	"X=1\n",
	"RangePush, $Time, $Thread, $Msg\n",
	"Marker, $Undefined\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, x, $Time_2\n",
	"NameOsThread, 41237, 1, \"julia worker 1\"\n",
	"AddChildCategory, 1, 2\n",
	"NameCategory, 1, \"KernelAbstractions\"\n",
	"SetFileDisplayName, KernelAbstractions\n",
	"Unknown, 1, 2\n",
	"Marker, 1, 2\n",
	/* the wide scanning steps (16 and 32 bytes): runs across and up to their edges */
	"A_very_long_variable_name_of_more_than_32_bytes_0123456789 = 1\n",
	"ABCDEFGHIJKLMNOP = ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef\n",
	"ABCDEFGHIJKLMNO = 123456789012345678\n",
	"X = 1234567890123456789\n",
	"X = 12345678901234567\n",
	"X = 1234567890123456\n",
	"X = 123456789\n",
	"X = -000000000000000001\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcdef0123456789abcdef0123456789abcdef\", x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcde\t0123456789abcdef0123456789abcde\x7f\", x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcdef0123456789abcde\xC3\xA9\xE2\x82\xAC" "0123456789\", x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcdef0123456789abcde\xC3\", x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, '0123456789abcdef0123456789ab\"de0123', x\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcdef0123456789abcdef0123\n",
	"Marker, 1, Qpc, 1, 2, 3, 4, \"0123456789abcdef0123456789\r\"\n",
	"X = $ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz\n",
	"X = $a\xC3\xA9\n",
	/*
	 * the line window (64 bytes from the ',' after the name, bit masks):
	 * strings with commas, blanks and tabs inside, blanks around values,
	 * the longest integer, runs that are not one token, and line breaks
	 * at and around the window's edges (byte 31, 32, 63 and 64 after the ',')
	 */
	"RangePush, 1, 2, \"a, b\"\n",
	"Marker ,1 ,  \"x  y\"  ,\t3\t\n",
	"Marker, 1, \"a\tb\x7f\", 007, 0\n",
	"Marker, 123456789012345678, \"\", 1\n",
	"Marker, 1234567890123456789, 1\n",
	"Marker, 1, 12, 123, 1234, 12345, 123456, 1234567, 12345678, 123456789, 1234567890\n",
	"Marker, 98765432109, 987654321098, 9876543210987, 98765432109876, 987654321098765\n",
	"Marker, 9876543210987654, 98765432109876543, 987654321098765432, 00000000000000000, 0000000000000000\n",
	"Marker, \"a\"\"b\"\n",
	"Marker, \"a\" \"b\"\n",
	"Marker, 1\"2\"\n",
	"Marker, \"a\"1\n",
	"Marker, 1 2, \"x\"\n",
	"Marker, \"x\", 1 2\n",
	"Marker, \"x\", 1, \"y\" 2\n",
	"Marker, \"a,\", \",b\", \",\"\n",
	"Marker, \"abc, 1\n",
	"Marker, 1, \"x\"   \n",
	/* empty values among the runs, and several strings: separators and runs must alternate */
	"Marker, , 1\n",
	"Marker, 1, , 2\n",
	"Marker, 1,\n",
	"Marker,,\n",
	"Marker, \"a\", \"b\", \"c\", \"d\", 1, 2\n",
	"Marker, \"a\" , \"b\",\"\",3\n",
	/* blanks before the name and before its ',' or '=' */
	" Marker, 1\n",
	"\t X \t= 1\n",
	"M, 1234567890, 22, \"0123456789a\"\n",
	"M, 1234567890, 22, \"0123456789ab\"\n",
	"M, 1234567890, 22, \"0123456789abc\"\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef0123456789a\"\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef0123456789ab\"\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef0123456789abc\"\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef0123456789\",\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef01234567\", 1\n",
	"M, 1234567890, 22, \"0123456789abcdef0123456789abcdef012345678\", 1\n",
	/* shapes left to flex and bison (errors or other instructions) */
	"Marker\n",
	"Marker   \n",
	"\n",
	"   \t\n",
	"# a comment, with commas\n",
	"@Marker, Time, Message\n",
	"@RangePush, Time, ThreadId, Message\n",
	"A =\n",
	"A = 1, 2\n",
	"A = \n",
	"A = ,\n",
	"= 1\n",
	"1, 2\n",
	"Marker 1, 2\n",
	"Marker-1, 2\n",
	"Marker, 9223372036854775808\n",
	"Marker, -9223372036854775809\n",
	"Marker, 99999999999999999999999\n",
	"Marker, 0x10000000000000000\n",
	"Marker, 0x00000000000000001\n",
	"Marker, \"unterminated\n",
	"Marker, 'unterminated\n",
	"Marker, \"a\"b\n",
	"Marker, \"a\" \"b\"\n",
	"Marker, a\"b\"\n",
	"Marker, $\n",
	"Marker, $1\n",
	"Marker, $A-b\n",
	"Marker, $A $B\n",
	"Marker, 1\r, 2\n",
	"Marker, \"a\rb\"\n",
	"Marker, a\rb\n",
	"Marker, \"\xC3\x28\"\n",
	"Marker, \xC3\x28\n",
	"Marker, \xED\xA0\x80\n",
	"Marker, \"\xF4\x90\x80\x80\"\n",
	"Marker, \xEF\xBB\xBF\n",
	"\xEF\xBB\xBFMarker, 1\n",
	"Marker, 1 # trailing comment\n",
	"Marker, 1,, 2,\n",
	"Marker, 1\r\r\n",
};

static int failures;

static void check_text(const char *what, const char *text, size_t len)
{
	struct fuzz_mode mode = fuzz_default_mode();
	bool file_ok, pipe_ok;

	file_ok = fuzz_fast_paths_agree(text, len, &mode);
	mode.pipe = true;
	mode.color = false;
	pipe_ok = fuzz_fast_paths_agree(text, len, &mode);
	if (!tap_ok(file_ok && pipe_ok, "fast paths agree with the reference: %s (file %s, pipe %s)", what,
		    file_ok ? "ok" : "DIFFERS", pipe_ok ? "ok" : "DIFFERS"))
		failures++;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			cap = cap ? 2 * cap : 65536;
			text = realloc(text, cap);
			if (!text)
				abort();
		}
		got = fread(text + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return text;
}

static void check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (!d) {
		printf("# %s: not there, skipped\n", dir);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n++] = strdup(e->d_name)))
			abort();
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		size_t len;
		char *text;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		free(names[i]);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		text = read_file(path, &len);
		if (text)
			check_text(path, text, len);
		free(text);
	}
	free(names);
}

int main(void)
{
	size_t nlines = sizeof(lines) / sizeof(lines[0]);
	struct buf all = { 0 }, big = { 0 };

	for (size_t i = 0; i < nlines; i++) {
		char what[96];
		snprintf(what, sizeof(what), "line %zu", i + 1);
		check_text(what, lines[i], strlen(lines[i]));
		buf_adds(&all, lines[i]);
	}
	check_text("all the lines", all.ptr, all.len);
	/* the last line without its line break */
	check_text("all the lines, the last without a line break", all.ptr, all.len - 1);

	/*
	 * More than the 256 KiB read buffer: lines cut at every refill, one
	 * line longer than the buffer (its value streamed to the scanner in
	 * pieces), then the usual lines again.
	 */
	buf_adds(&big, "@Marker, Time, Message\nProcessId = 1\nThreadId = 2\nTimeBase = Qpc\n");
	for (int r = 0; big.len < 700 * 1024; r++) {
		buf_add(&big, all.ptr, all.len);
		buf_printf(&big, "Marker, %d, \"%*s\"\n", r, r % 97, "");
		if (r == 20) {
			buf_adds(&big, "Marker, 7, \"");
			for (int k = 0; k < 300 * 1024; k++)
				buf_addc(&big, (char)('a' + k % 26));
			buf_adds(&big, "\"\n");
		}
	}
	check_text("700 KB of the lines, with a 300 KB line", big.ptr, big.len);
	buf_free(&all);
	buf_free(&big);

	check_dir("tests/lint");
	check_dir("tests/emit");
	check_dir("tests/fmt");
	check_dir("examples");
	check_dir("tests/fuzz/corpus/frontend");
	check_dir("tests/fuzz/corpus/fmt");
	check_dir("../shared/corpus");

	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
