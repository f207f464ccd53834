/*
 * cmd_lsp.c - `nvtxtc lsp`: the language server of src/lsp/ on standard
 * input and output.  The -W options and --max-errors of the command line
 * are the settings the client's own settings start from (its "warnings"
 * continue the command line's -W options).
 */
#include "driver.h"
#include "lsp.h"

int run_lsp(struct run *run, char **operands, int noperands)
{
	(void)operands;
	(void)noperands;
	return nvtxt_lsp_serve(&run->opt->diag, &run->opt->warn);
}
