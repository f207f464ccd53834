/*
 * namemap.c - unit test of struct namemap (src/util/util.h): names are
 * told apart by their bytes, also when hash_bytes collides (two names of
 * 16 bytes with one hash, found by searching the second word against the
 * first: tests/lint/unknown-command-hash-collision.nvtxt uses them too),
 * values stay with their names, and many names survive the growth of the
 * index and of the entries.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "tap.h"

int main(void)
{
	static const char a[] = "RangePushTypoAAA", b[] = "Z0JDcnowp_uj3Fj4";
	struct namemap m = { 0 };
	uint32_t *v;
	int inserted, all = 1;
	char name[32];

	tap_ok(hash_bytes(a, 16) == hash_bytes(b, 16) && strcmp(a, b) != 0,
	       "'%s' and '%s' have the same length and hash_bytes", a, b);
	v = namemap_put(&m, a, 16, 1, &inserted);
	tap_ok(v && *v == 1 && inserted, "the first name goes in with its value");
	tap_ok(namemap_get(&m, b, 16) == NULL, "the second name, of the same hash, is not found before it is put");
	v = namemap_put(&m, b, 16, 2, &inserted);
	tap_ok(v && *v == 2 && inserted, "the second name goes in as a name of its own");
	tap_ok(*namemap_get(&m, a, 16) == 1 && *namemap_get(&m, b, 16) == 2, "each name keeps its own value");
	v = namemap_put(&m, a, 16, 7, &inserted);
	tap_ok(v && *v == 1 && !inserted, "putting a name again finds it and keeps its value");
	tap_ok(namemap_get(&m, "RangePushTypoAAB", 16) == NULL, "a name of the same length and another hash is not found");
	tap_ok(namemap_put(&m, "", 0, 9, &inserted) && inserted && *namemap_get(&m, NULL, 0) == 9, "the empty name is a name");
	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "v%u", i);
		namemap_put(&m, name, strlen(name), i, &inserted);
		all &= inserted;
	}
	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "v%u", i);
		v = namemap_get(&m, name, strlen(name));
		all &= v && *v == i;
	}
	tap_ok(all && m.count == 5003, "5000 more names each keep their value through the growth of the map");
	tap_ok(*namemap_get(&m, a, 16) == 1 && *namemap_get(&m, b, 16) == 2, "the colliding names still keep theirs");
	namemap_free(&m);
	tap_ok(m.count == 0 && namemap_get(&m, a, 16) == NULL, "namemap_free empties the map");
	return tap_done();
}
