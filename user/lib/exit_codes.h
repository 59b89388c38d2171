/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Exit codes, as kselftest reads them (tools/testing/selftests/kselftest.h):
 * a test harness that runs us treats 4 as "skipped", not "failed".
 */
#ifndef SO_EXIT_CODES_H
#define SO_EXIT_CODES_H

enum so_exit_code {
	SO_EXIT_PASS	= 0,	/* ran, nothing found or every cycle gated */
	SO_EXIT_FAIL	= 1,	/* a test failed, a deadlock-prone cycle, error */
	SO_EXIT_USAGE	= 2,	/* bad command line */
	SO_EXIT_SKIP	= 4,	/* this machine cannot run it (no root, BTF) */
};

#endif /* SO_EXIT_CODES_H */
