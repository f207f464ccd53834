/*
 * warning_options.c - the -W options (nvtxtc(1), OPTIONS): the one parser
 * of their forms, for the driver's command line and the language server's
 * "warnings" setting (nvtxt/diag.h).
 */
#include <string.h>

#include "nvtxt/diag.h"

/* True when check i is a warning, which -W options select. */
static bool is_warning(int i)
{
	return nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING;
}

/* -Wall and -Wextra: every warning that no option of its own has set. */
static void all_warnings(struct nvtxt_diag_config *cfg, const struct nvtxt_warning_options *st)
{
	if (st->silenced)
		return;
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (is_warning(i) && !st->named[i])
			cfg->level[i] = st->all_errors ? NVTXT_LEVEL_ERROR : NVTXT_LEVEL_WARN;
}

/* -Werror: every warning that is on becomes an error, and later ones too. */
static void all_errors(struct nvtxt_diag_config *cfg, struct nvtxt_warning_options *st)
{
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (is_warning(i) && cfg->level[i] != NVTXT_LEVEL_OFF)
			cfg->level[i] = NVTXT_LEVEL_ERROR;
	st->all_errors = true;
}

enum nvtxt_warning_status nvtxt_warning_option(struct nvtxt_diag_config *cfg, struct nvtxt_warning_options *st,
					       const char *arg, const char **name)
{
	const char *n = arg;
	int level = st->all_errors ? NVTXT_LEVEL_ERROR : NVTXT_LEVEL_WARN;
	int check;

	if (name)
		*name = arg;
	if (strcmp(arg, "all") == 0 || strcmp(arg, "extra") == 0) {
		all_warnings(cfg, st);
		return NVTXT_WARNING_OK;
	}
	if (strcmp(arg, "error") == 0) {
		all_errors(cfg, st);
		return NVTXT_WARNING_OK;
	}
	if (strncmp(arg, "error=", 6) == 0)
		n = arg + 6, level = NVTXT_LEVEL_ERROR;
	else if (strncmp(arg, "no-error=", 9) == 0)
		n = arg + 9, level = NVTXT_LEVEL_WARN;
	else if (strncmp(arg, "no-", 3) == 0)
		n = arg + 3, level = NVTXT_LEVEL_OFF;
	if (name)
		*name = n;
	check = nvtxt_check_lookup(n);
	if (check < 0)
		return NVTXT_WARNING_UNKNOWN;
	if (!is_warning(check))
		return NVTXT_WARNING_ERROR_CHECK;
	cfg->level[check] = (unsigned char)level;
	st->named[check] = true;
	return NVTXT_WARNING_OK;
}

void nvtxt_warnings_off(struct nvtxt_diag_config *cfg, struct nvtxt_warning_options *st)
{
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (is_warning(i))
			cfg->level[i] = NVTXT_LEVEL_OFF;
	st->silenced = true;
}
