/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/lib/tap.h: the Test Anything Protocol for the project's C host
 * tests, the twin of tap.sh.  Header-only (every test is one program).
 *
 *	tap_plan(n);			"1..n", before the first result
 *	tap_check(cond, fmt, ...);	"ok K - PREFIX ..." or "not ok K - ..."
 *	tap_skip(reason, fmt, ...);	"ok K - PREFIX ... # SKIP reason"
 *	return tap_done();		exit status: 1 when a result failed or
 *					the count differs from the plan
 *
 * Define TAP_PREFIX (a string literal) before including to start every
 * description with it.
 */
#ifndef TESTS_LIB_TAP_H
#define TESTS_LIB_TAP_H

#include <stdarg.h>
#include <stdio.h>

#ifndef TAP_PREFIX
#define TAP_PREFIX ""
#endif

static int tap_count, tap_failed, tap_planned = -1;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

static inline void tap_vline(int ok, const char *fmt, va_list ap)
{
	tap_count++;
	printf("%s %d - " TAP_PREFIX, ok ? "ok" : "not ok", tap_count);
	vprintf(fmt, ap);
}

__attribute__((format(printf, 2, 3)))
static inline int tap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(ok, fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_failed += !ok;
	return ok;
}

__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(1, fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
}

static inline int tap_done(void)
{
	if (tap_planned < 0) {
		printf("not ok - " TAP_PREFIX "the test printed no plan\n");
		return 1;
	}
	if (tap_count != tap_planned) {
		printf("not ok - " TAP_PREFIX "planned %d results, printed %d\n",
		       tap_planned, tap_count);
		return 1;
	}
	return tap_failed != 0;
}

#endif /* TESTS_LIB_TAP_H */
