/*
 * colors.c - unit test of the color-name table (src/lang/colors.c): the .NET
 * System.Drawing.Color names, matched without regard to ASCII case.
 */
#include "nvtxt/language.h"
#include "tap.h"

/* ASCII case-insensitive strcmp, independent of the locale. */
static int ascii_casecmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (unsigned char)(y - 'A' + 'a');
		if (x != y || x == '\0')
			return x < y ? -1 : x > y;
	}
}

static void check_value(const char *name, uint32_t want)
{
	uint32_t argb = 0;
	int found = nvtxt_color_lookup(name, strlen(name), &argb);

	tap_ok(found, "%s is known", name);
	tap_is_int(argb, want, "%s = 0x%08lX", name, (unsigned long)want);
}

static void check_unknown(const char *name, size_t len, const char *what)
{
	uint32_t argb = 0x12345678;

	tap_ok(!nvtxt_color_lookup(name, len, &argb), "%s is not found", what);
	tap_is_int(argb, 0x12345678, "%s leaves the output alone", what);
}

int main(void)
{
	size_t n, i;
	int round_trip = 1, lower_trip = 1, sorted = 1;

	for (n = 0; nvtxt_color_name(n) != NULL; n++)
		;
	tap_is_int(n, 141, "141 color names");
	tap_ok(nvtxt_color_name(141) == NULL, "name 141 is NULL");
	tap_ok(nvtxt_color_name((size_t)-1) == NULL, "name SIZE_MAX is NULL");

	check_value("Blue", 0xFF0000FF);
	check_value("blue", 0xFF0000FF);
	check_value("BLUE", 0xFF0000FF);
	check_value("bLuE", 0xFF0000FF);
	check_value("Transparent", 0x00FFFFFF);
	check_value("DarkGray", 0xFFA9A9A9);
	check_value("Gray", 0xFF808080);
	check_value("Green", 0xFF008000);
	check_value("Lime", 0xFF00FF00);
	check_value("Fuchsia", 0xFFFF00FF);
	check_value("Magenta", 0xFFFF00FF);
	check_value("Aqua", 0xFF00FFFF);
	check_value("Cyan", 0xFF00FFFF);
	check_value("LightGoldenrodYellow", 0xFFFAFAD2);
	check_value("MediumSpringGreen", 0xFF00FA9A);
	check_value("YellowGreen", 0xFF9ACD32);
	check_value("AliceBlue", 0xFFF0F8FF);
	check_value("Black", 0xFF000000);
	check_value("White", 0xFFFFFFFF);

	check_unknown("Grey", 4, "Grey");
	check_unknown("DarkGrey", 8, "DarkGrey");
	check_unknown("RebeccaPurple", 13, "RebeccaPurple");
	check_unknown("ActiveBorder", 12, "system color ActiveBorder");
	check_unknown("", 0, "the empty name");
	check_unknown("Blue", 0, "Blue with len 0");
	check_unknown("Blue ", 5, "'Blue ' (trailing blank)");
	check_unknown(" Blue", 5, "' Blue' (leading blank)");
	check_unknown("Bl", 2, "Bl");
	check_unknown("Blu", 3, "Blu");
	check_unknown("Blues", 5, "Blues");
	check_unknown("Blue\0", 5, "Blue followed by a NUL byte");
	check_unknown("Bl\xc3\xbc" "e", 5, "a name with a UTF-8 byte");
	check_unknown("Zzz", 3, "Zzz (after the last)");
	check_unknown("Aaa", 3, "Aaa (before the first)");

	/* Only the first len bytes count: "Redx" with len 3 is Red. */
	{
		uint32_t argb = 0;

		tap_ok(nvtxt_color_lookup("Redx", 3, &argb) && argb == 0xFFFF0000,
		       "the name is (ptr, len), not NUL-terminated");
	}

	for (i = 0; i < n; i++) {
		const char *name = nvtxt_color_name(i);
		char lower[64];
		size_t len = strlen(name), j;
		uint32_t a = 0, b = 0;

		if (!nvtxt_color_lookup(name, len, &a)) {
			round_trip = 0;
			printf("# %s does not round-trip\n", name);
		}
		if (len >= sizeof lower) {
			lower_trip = 0;
			continue;
		}
		for (j = 0; j <= len; j++)
			lower[j] = (char)(name[j] >= 'A' && name[j] <= 'Z'
			                  ? name[j] - 'A' + 'a' : name[j]);
		if (!nvtxt_color_lookup(lower, len, &b) || a != b) {
			lower_trip = 0;
			printf("# %s does not round-trip in lower case\n", lower);
		}
	}
	tap_ok(round_trip, "every name round-trips through lookup");
	tap_ok(lower_trip, "every lower-cased name finds the same value");

	for (i = 1; i < n; i++) {
		if (ascii_casecmp(nvtxt_color_name(i - 1), nvtxt_color_name(i)) >= 0) {
			sorted = 0;
			printf("# %s is not before %s\n", nvtxt_color_name(i - 1),
			       nvtxt_color_name(i));
		}
	}
	tap_ok(sorted, "names are sorted case-insensitively without duplicates");

	return tap_done();
}
