/*
 * checks.c - the check registry's table, built from checks.def.
 */
#include <string.h>

#include "nvtxt/checks.h"

static const struct nvtxt_check check_table[NVTXT_CHECK_COUNT] = {
#define CHECK(id, name_, severity_, fixable_, section_, description_, help_)                    \
	[NVTXT_CHECK_##id] = { .name = name_, .severity = NVTXT_SEV_##severity_,                \
			       .fixable = fixable_, .section = section_, .description = description_, \
			       .help = help_ },
#include "checks.def"
#undef CHECK
};

const struct nvtxt_check *nvtxt_check_get(enum nvtxt_check_id id)
{
	return (unsigned)id < NVTXT_CHECK_COUNT ? &check_table[id] : NULL;
}

int nvtxt_check_lookup(const char *name)
{
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (strcmp(check_table[i].name, name) == 0)
			return i;
	return -1;
}
