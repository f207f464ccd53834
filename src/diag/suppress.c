/*
 * suppress.c - suppression comments (nvtxt(5), "Suppression comments";
 * suppress.h): reading them, the filter diag_end applies (supp_covers), and
 * the warnings about those that name no warning, come too late or silence
 * nothing, told through the engine's report callback.
 */
#include <stdlib.h>
#include <string.h>

#include "suppress.h"

#define NEXT_LINE "nvtxtc-disable-next-line"
#define FILE_WIDE "nvtxtc-disable"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_';
}

static void add(struct supp_set *e, enum nvtxt_check_id check, uint32_t line, const struct nvtxt_loc *loc)
{
	/* a temporary (util.h): supp_finish holds it in a local while it reports */
	if (e->nsupp == e->supp_cap) {
		size_t cap = e->supp_cap ? 2 * e->supp_cap : 8;
		e->supp = tmp_realloc(e->supp, cap * sizeof(*e->supp));
		e->supp_cap = cap;
	}
	e->supp[e->nsupp++] = (struct nvtxt_suppression){ .check = check, .line = line, .loc = *loc };
}

/* Reports a name that is not a warning's: unknown (with the nearest warning) or an error check. */
static void bad_name(const char *name, size_t len, const struct nvtxt_loc *loc, supp_report_fn *report,
		     void *user)
{
	const char *names[NVTXT_CHECK_COUNT];
	const char *near;
	size_t n = 0;
	bool unique;
	char *s = tmp_strndup(name, len); /* freed by the guard if a report fails (util.h) */
	int id = nvtxt_check_lookup(s);

	if (id >= 0) {
		report(user, NVTXT_CHECK_UNKNOWN_SUPPRESSION, loc, NULL,
		       "'%s' is an error check, and errors cannot be silenced: a suppression comment names warnings only",
		       s);
		tmp_free(s);
		return;
	}
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING)
			names[n++] = nvtxt_check_get((enum nvtxt_check_id)i)->name;
	near = suggest_unique(name, len, names, n, &unique);
	if (near)
		report(user, NVTXT_CHECK_UNKNOWN_SUPPRESSION, loc, unique ? near : NULL,
		       "unknown warning '%s' in a suppression comment; did you mean '%s'?", s, near);
	else
		report(user, NVTXT_CHECK_UNKNOWN_SUPPRESSION, loc, NULL,
		       "unknown warning '%s' in a suppression comment (nvtxtc --list-checks names them)", s);
	tmp_free(s);
}

void supp_comment(struct supp_set *e, const char *text, size_t len, const struct nvtxt_loc *at,
		  supp_report_fn *report, void *user)
{
	size_t i = 1, start;
	bool file_wide;
	uint32_t line;
	struct nvtxt_loc loc = *at;
	size_t named = 0;

	if (!len || text[0] != '#')
		return;
	while (i < len && is_blank(text[i]))
		i++;
	start = i;
	while (i < len && is_name_char(text[i]))
		i++;
	if (i - start == strlen(NEXT_LINE) && memcmp(text + start, NEXT_LINE, i - start) == 0) {
		file_wide = false;
	} else if (i - start == strlen(FILE_WIDE) && memcmp(text + start, FILE_WIDE, i - start) == 0) {
		file_wide = true;
	} else {
		if (i - start > 7 && memcmp(text + start, "nvtxtc-", 7) == 0) {
			loc.col = at->col + (uint32_t)start;
			loc.len = (uint32_t)(i - start);
			report(user, NVTXT_CHECK_UNKNOWN_SUPPRESSION, &loc, NULL,
					       "unknown suppression comment '%.*s': expected nvtxtc-disable-next-line or nvtxtc-disable",
					       (int)(i - start), text + start);
		}
		return;
	}
	if (i < len && !is_blank(text[i]))
		return; /* "# nvtxtc-disable-next-line." is prose */
	line = file_wide ? 0 : UINT32_MAX; /* UINT32_MAX: bound by supp_instruction */
	if (file_wide && e->seen_instruction) {
		loc.col = at->col + (uint32_t)start;
		loc.len = (uint32_t)(i - start);
		report(user, NVTXT_CHECK_MISPLACED_SUPPRESSION, &loc, NULL,
				       "'# nvtxtc-disable' must come before the first instruction of the file, where it covers the whole file; "
				       "to silence one line, use '# nvtxtc-disable-next-line' before it");
		return;
	}
	for (;;) {
		while (i < len && (is_blank(text[i]) || text[i] == ','))
			i++;
		if (i == len || (i + 1 < len && text[i] == '-' && text[i + 1] == '-'))
			break; /* the end, or "-- a reason" */
		start = i;
		while (i < len && !is_blank(text[i]) && text[i] != ',')
			i++;
		loc.col = at->col + (uint32_t)start;
		loc.len = (uint32_t)(i - start);
		named++;
		{
			char *name = tmp_strndup(text + start, i - start);
			int id = nvtxt_check_lookup(name);
			tmp_free(name);
			if (id < 0 || nvtxt_check_get((enum nvtxt_check_id)id)->severity != NVTXT_SEV_WARNING)
				bad_name(text + start, i - start, &loc, report, user);
			else
				add(e, (enum nvtxt_check_id)id, line, &loc);
		}
	}
	if (!named) {
		loc.col = at->col;
		loc.len = (uint32_t)len;
		report(user, NVTXT_CHECK_UNKNOWN_SUPPRESSION, &loc, NULL,
				       "the suppression comment names no warning: expected '%s NAME[,NAME]...'",
				       file_wide ? "# " FILE_WIDE : "# " NEXT_LINE);
	}
}

void supp_instruction(struct supp_set *e, uint32_t line)
{
	e->seen_instruction = true;
	for (size_t i = e->supp_pending; i < e->nsupp; i++)
		if (e->supp[i].line == UINT32_MAX)
			e->supp[i].line = line;
	e->supp_pending = e->nsupp;
}

bool supp_covers(struct supp_set *e, enum nvtxt_check_id check, uint32_t line)
{
	if (!e->nsupp || nvtxt_check_get(check)->severity != NVTXT_SEV_WARNING)
		return false;
	for (size_t i = 0; i < e->nsupp; i++) {
		struct nvtxt_suppression *s = &e->supp[i];
		if (s->check == check && (s->line == 0 || (line && s->line == line))) {
			s->used = true;
			return true;
		}
	}
	return false;
}

void supp_finish(struct supp_set *e, const unsigned char *level, supp_report_fn *report, void *user)
{
	struct nvtxt_suppression *supp = e->supp;
	size_t n = e->nsupp;

	/* the reports below go through the engine's filter, which must not see the list any more */
	e->supp = NULL;
	e->nsupp = e->supp_cap = e->supp_pending = 0;
	for (size_t i = 0; i < n; i++) {
		const struct nvtxt_suppression *s = &supp[i];
		const char *name = nvtxt_check_get(s->check)->name;
		bool used = s->used;
		if (used || level[s->check] == NVTXT_LEVEL_OFF ||
		    s->check == NVTXT_CHECK_UNUSED_SUPPRESSION)
			continue;
		/* a file-wide suppression of unused-suppression covers these reports too */
		for (size_t j = 0; j < n && !used; j++)
			used = supp[j].check == NVTXT_CHECK_UNUSED_SUPPRESSION && supp[j].line == 0;
		if (used)
			continue;
		if (s->line == 0)
			report(user, NVTXT_CHECK_UNUSED_SUPPRESSION, &s->loc, NULL,
					       "the suppression of '%s' silences nothing: this file has no %s warning",
					       name, name);
		else if (s->line == UINT32_MAX)
			report(user, NVTXT_CHECK_UNUSED_SUPPRESSION, &s->loc, NULL,
					       "the suppression of '%s' silences nothing: no instruction follows it", name);
		else
			report(user, NVTXT_CHECK_UNUSED_SUPPRESSION, &s->loc, NULL,
					       "the suppression of '%s' silences nothing: the next instruction (line %u) has no %s warning",
					       name, (unsigned)s->line, name);
	}
	tmp_free(supp);
}
