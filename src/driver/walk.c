/*
 * walk.c - directories given to lint and fmt: the *.nvtxt files under
 * them, as gofmt and ruff find theirs (see expand_operands in driver.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver.h"
#include "util.h"

struct list {
	char **v;
	size_t n, cap;
};

static void add(struct list *l, char *path)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = path;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_nvtxt_name(const char *name)
{
	size_t n = strlen(name);
	return n > 6 && strcmp(name + n - 6, ".nvtxt") == 0;
}

/* Adds the files under dir; returns 0, or 2 when a directory could not be read (reported). */
static int walk(const struct nvtxt_diag_sink *sink, const char *dir, struct list *out)
{
	struct list names = { 0 };
	struct dirent *e;
	DIR *d = opendir(dir);
	int status = 0;

	if (!d) {
		io_error(sink, NULL, "cannot read the directory '%s': %s", dir, strerror(errno));
		return 2;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			add(&names, xstrndup(e->d_name, strlen(e->d_name)));
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.n; i++) {
		struct buf path = { 0 };
		struct stat st;
		size_t len = strlen(dir);

		buf_add(&path, dir, len);
		if (len && dir[len - 1] != '/')
			buf_addc(&path, '/');
		buf_adds(&path, names.v[i]);
		if (lstat(path.ptr, &st) != 0) {
			buf_free(&path); /* gone since readdir */
		} else if (S_ISDIR(st.st_mode)) {
			if (walk(sink, path.ptr, out) != 0)
				status = 2;
			buf_free(&path);
		} else if (is_nvtxt_name(names.v[i]) &&
			   (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && stat(path.ptr, &st) == 0 &&
						    S_ISREG(st.st_mode)))) {
			/* a symbolic link to a file counts; to a directory, not */
			add(out, xstrndup(path.ptr, path.len));
			buf_free(&path);
		} else {
			buf_free(&path);
		}
		free(names.v[i]);
	}
	free(names.v);
	return status;
}

int expand_operands(const struct nvtxt_diag_sink *sink, char **operands, int n,
		    char ***files, int *nfiles)
{
	struct list out = { 0 };
	int status = 0;

	for (int i = 0; i < n; i++) {
		struct stat st;
		size_t before = out.n;

		/* an operand is followed even when it is a symbolic link: it was named */
		if (strcmp(operands[i], "-") == 0 || stat(operands[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			add(&out, xstrndup(operands[i], strlen(operands[i])));
			continue;
		}
		if (walk(sink, operands[i], &out) != 0)
			status = 2;
		else if (out.n == before) {
			io_error(sink, NULL, "'%s' is a directory without any *.nvtxt file in it or under it", operands[i]);
			status = 2;
		}
	}
	*files = out.v;
	*nfiles = (int)out.n;
	return status;
}

void free_files(char **files, int n)
{
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
}
