// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The user's files: traces are created 0600 and never through a symlink;
 * only regular files are read or written, and a FIFO blocks nothing.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "helpers.h"
#include "lib/files.h"

struct dir {
	char path[64];
	char file[96], link[96], fifo[96], victim[96];
};

static void dir_make(struct dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/so-files-XXXXXX");
	assert_non_null(mkdtemp(d->path));
	snprintf(d->file, sizeof(d->file), "%s/trace.data", d->path);
	snprintf(d->link, sizeof(d->link), "%s/link.data", d->path);
	snprintf(d->fifo, sizeof(d->fifo), "%s/fifo", d->path);
	snprintf(d->victim, sizeof(d->victim), "%s/victim", d->path);
}

static void dir_remove(struct dir *d)
{
	unlink(d->file);
	unlink(d->link);
	unlink(d->fifo);
	unlink(d->victim);
	rmdir(d->path);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

static void test_output_mode(void **state)
{
	struct dir d;
	FILE *f;

	(void)state;
	dir_make(&d);
	f = files_open_output(d.file);
	assert_non_null(f);
	fputs("new", f);
	fclose(f);
	assert_int_equal(mode_of(d.file), 0600);
	/* An existing file, readable by all and longer: 0600, emptied. */
	assert_int_equal(chmod(d.file, 0644), 0);
	f = files_open_output(d.file);
	assert_non_null(f);
	fclose(f);
	assert_int_equal(mode_of(d.file), 0600);
	f = fopen(d.file, "rb");
	assert_non_null(f);
	assert_int_equal(fgetc(f), EOF);
	fclose(f);
	dir_remove(&d);
}

/* A symlink planted at the output path: refused, its target untouched. */
static void test_output_symlink(void **state)
{
	struct dir d;
	char buf[16] = "";
	FILE *f;

	(void)state;
	dir_make(&d);
	f = fopen(d.victim, "w");
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	assert_int_equal(symlink(d.victim, d.link), 0);
	errno = 0;
	assert_null(files_open_output(d.link));
	assert_int_equal(errno, ELOOP);
	f = fopen(d.victim, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious");
	dir_remove(&d);
}

/* FIFOs and devices: refused at once, in both directions. */
static void test_not_regular(void **state)
{
	struct dir d;

	(void)state;
	dir_make(&d);
	assert_int_equal(mkfifo(d.fifo, 0600), 0);
	errno = 0;
	assert_null(files_open_input(d.fifo));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(files_open_output(d.fifo));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(files_open_input("/dev/null"));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(files_open_input(d.file));
	assert_int_equal(errno, ENOENT);
	dir_remove(&d);
}

static void test_input_regular(void **state)
{
	struct dir d;
	FILE *f;

	(void)state;
	dir_make(&d);
	f = fopen(d.file, "w");
	assert_non_null(f);
	fputs("x", f);
	fclose(f);
	f = files_open_input(d.file);
	assert_non_null(f);
	assert_int_equal(fgetc(f), 'x');
	fclose(f);
	dir_remove(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_mode),
		cmocka_unit_test(test_output_symlink),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_input_regular),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
