/*
 * json_cost.c - what one Trace Event serialised by a JSON library costs
 * (bench/README.md, issue 14).  Built twice, because jansson's and json-c's
 * headers cannot meet in one file: json_cost_jansson and json_cost_jsonc
 * (make build/bench/json_cost_jansson build/bench/json_cost_jsonc).
 *
 *   json_cost_jansson MODE N     MODE: real | int | flat
 *   json_cost_jsonc MODE N       MODE: double | format | int | text
 *
 * serialise the B event that --emit=chrome writes for the bench's traces,
 *
 *   {"name":"prolong2interfaces [warmup]","cat":"KernelAbstractions","ph":"B",
 *    "ts":123487.753,"pid":41237,"tid":3,"args":{"category_id":1,"color":"0xFF0000FF","line":36}}
 *
 * N times, the way emit_chrome.c does (one object kept, its value nodes
 * updated in place: name, ts, tid and line change every time), into a
 * reused buffer.  Run it under callgrind and divide by N:
 *
 *   valgrind --tool=callgrind build/bench/json_cost_jsonc text 100000
 *
 * jansson: real, ts a real (json_real, JSON_REAL_PRECISION(15)); int, ts
 * an integer; flat, integer ts and the args members in the event (one
 * object less).  json-c: double, ts a double printed as json-c does
 * (%.17g); format, a double printed with the node's format "%.3f"; int, an
 * integer ts; text, the double node printed as the exact decimal set by
 * the caller (json_object_userdata_to_json_string, as emit_chrome.c does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeconv.h" /* timeconv_us_text: the ts text emit_chrome.c writes */
#ifdef JSON_COST_JSONC
#include <json-c/json.h>
#else
#include <jansson.h>
#endif

static const char *const names[] = { "prolong2interfaces [warmup]", "surface_flux (f64)", "checkpoint 24",
				     "cuMemcpyDtoHAsync #2" };
static size_t total; /* bytes serialised: printed, so nothing is optimised away */

static int usage(void)
{
#ifdef JSON_COST_JSONC
	fputs("usage: json_cost_jsonc double|format|int|text N\n", stderr);
#else
	fputs("usage: json_cost_jansson real|int|flat N\n", stderr);
#endif
	return 2;
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3 || (n = atol(argv[2])) < 1)
		return usage();
#ifdef JSON_COST_JSONC
	int mode = strcmp(argv[1], "double") == 0 ? 0 : strcmp(argv[1], "format") == 0 ? 1
		 : strcmp(argv[1], "int") == 0 ? 2 : strcmp(argv[1], "text") == 0 ? 3 : -1;
	struct json_object *ev, *args, *name, *ts, *tid, *line;
	char ts_text[48] = "0.0";

	if (mode < 0)
		return usage();
	ev = json_object_new_object();
	args = json_object_new_object();
	name = json_object_new_string("");
	ts = mode == 2 ? json_object_new_int64(0) : json_object_new_double(0);
	tid = json_object_new_int64(0);
	line = json_object_new_int64(0);
	json_object_object_add(ev, "name", name);
	json_object_object_add(ev, "cat", json_object_new_string("KernelAbstractions"));
	json_object_object_add(ev, "ph", json_object_new_string("B"));
	json_object_object_add(ev, "ts", ts);
	json_object_object_add(ev, "pid", json_object_new_int64(41237));
	json_object_object_add(ev, "tid", tid);
	json_object_object_add(args, "category_id", json_object_new_int64(1));
	json_object_object_add(args, "color", json_object_new_string("0xFF0000FF"));
	json_object_object_add(args, "line", line);
	json_object_object_add(ev, "args", args);
	if (mode == 3)
		json_object_set_serializer(ts, json_object_userdata_to_json_string, ts_text, NULL);
	for (long i = 0; i < n; i++) {
		long long t = 123487753 + i * 371;
		size_t k;

		json_object_set_string(name, names[i & 3]);
		if (mode == 2) {
			json_object_set_int64(ts, t);
		} else if (mode == 3) {
			timeconv_us_text(ts_text, t);
		} else {
			json_object_set_double(ts, (double)t / 1000.0);
			if (mode == 1)
				json_object_set_serializer(ts, json_object_double_to_json_string, (void *)"%.3f", NULL);
		}
		json_object_set_int64(tid, i % 9);
		json_object_set_int64(line, 36 + i);
		json_object_to_json_string_length(ev, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &k);
		total += k;
	}
	json_object_put(ev);
#else
	int mode = strcmp(argv[1], "real") == 0 ? 0 : strcmp(argv[1], "int") == 0 ? 1
		 : strcmp(argv[1], "flat") == 0 ? 2 : -1;
	json_t *ev, *args, *name, *cat, *ts, *pid, *tid, *cid, *color, *line;
	char buf[4096];

	if (mode < 0)
		return usage();
	ev = json_object();
	args = json_object();
	name = json_string("");
	cat = json_string("KernelAbstractions");
	ts = mode == 0 ? json_real(0) : json_integer(0);
	pid = json_integer(41237);
	tid = json_integer(0);
	cid = json_integer(1);
	color = json_string("0xFF0000FF");
	line = json_integer(0);
	json_object_set_new(ev, "name", name);
	json_object_set_new(ev, "cat", cat);
	json_object_set_new(ev, "ph", json_string("B"));
	json_object_set_new(ev, "ts", ts);
	json_object_set_new(ev, "pid", pid);
	json_object_set_new(ev, "tid", tid);
	json_t *into = mode == 2 ? ev : args;
	json_object_set_new(into, "category_id", cid);
	json_object_set_new(into, "color", color);
	json_object_set_new(into, "line", line);
	if (mode != 2)
		json_object_set_new(ev, "args", args);
	else
		json_decref(args);
	for (long i = 0; i < n; i++) {
		long long t = 123487753 + i * 371;

		json_string_set(name, names[i & 3]);
		if (mode == 0)
			json_real_set(ts, (double)t / 1000.0);
		else
			json_integer_set(ts, t);
		json_integer_set(tid, i % 9);
		json_integer_set(line, 36 + i);
		total += json_dumpb(ev, buf, sizeof buf, JSON_COMPACT | JSON_REAL_PRECISION(15));
	}
	json_decref(ev);
#endif
	printf("%ld events, %zu bytes\n", n, total);
	return 0;
}
