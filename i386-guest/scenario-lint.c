// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-lint [--abi ABI] [OPTION] FILE...: parse scenario files on the
 * host, in the order given, with one parser state (as the guest does).
 *
 *   (no option)  print one TAP line per file, "ok - lint FILE" or
 *                "not ok - lint FILE # error"; the files are read once for
 *                every ABI (or only for ABI), and a file passes when it
 *                parses for all of them
 *   --boots      print the boots, one per line: TAG, a tab, the kernel
 *                parameters; exit 1 on any syntax error
 *   --count TAG  print how many scenarios TAG runs under ABI (default
 *                i386) on each kernel: "stock N" and "patched N" (one
 *                result each, however many times repeat= runs it); a
 *                scenario with series= counts only when --series SERIES
 *                (before --count) names its series; with --only GLOB,...
 *                (before --count), only scenarios whose names match one
 *                of the globs count (guest.only=, scenario.h)
 *
 * scenario-lint --abis ARCH prints the ABIs a kernel of ARCH runs, one per
 * line (what the guest's runner does, scenario.h); scenario-lint --abis,
 * every ABI the parser knows.  tests/host/test-abis.sh holds both to
 * i386-guest/abis.txt.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define MAX_SCENARIOS 1024

static struct {
	char name[128];
	char series[16];
} seen[MAX_SCENARIOS];
static int nseen;

/*
 * Scenario names are how results are reported: they must be unique among
 * the scenarios one kernel runs.  Two rows may share a name only when
 * each has a series= and they differ.
 */
static bool duplicate(const struct scenario *s)
{
	int n = nseen;

	for (int i = 0; i < n; i++)
		if (!strcmp(seen[i].name, s->name) &&
		    (!seen[i].series[0] || !s->series[0] || !strcmp(seen[i].series, s->series)))
			return true;
	if (n < MAX_SCENARIOS) {
		strcpy(seen[n].name, s->name);
		strcpy(seen[n].series, s->series);
		nseen++;
	}
	return false;
}

/*
 * Parses every file for st->abi.  Counts count_boot's scenarios on a
 * kernel of series, or records each file's first error in errors[] (NULL:
 * no record).
 */
static int parse_all(int n, char **files, struct scn_file *st, const char *count_boot,
		     const char *series, const char *only, int *stock, int *patched,
		     char (*errors)[300])
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		FILE *f = fopen(files[i], "re");
		struct scenario s;
		int r;

		if (!f) {
			perror(files[i]);
			return 1;
		}
		st->path = files[i];
		st->line = 0;
		while ((r = scn_next(f, st, &s)) == 1) {
			if (!count_boot && duplicate(&s)) {
				snprintf(st->error, sizeof(st->error), "%s:%d: scenario name %s used twice",
					 files[i], s.line, s.name);
				r = -1;
				break;
			}
			if (!count_boot || strcmp(s.boot, count_boot) || !scn_runs_on(&s, st->abi) ||
			    !scn_runs_in(&s, series) || !scn_named_in(&s, only))
				continue;
			*stock += strcmp(s.kernel, "patched") != 0;
			*patched += strcmp(s.kernel, "stock") != 0;
		}
		fclose(f);
		if (r < 0)
			failed++;
		if (r < 0 && errors && !errors[i][0])
			snprintf(errors[i], sizeof(errors[i]), "%s (abi %s)", st->error, st->abi);
		else if (r < 0 && !errors)
			fprintf(stderr, "scenario-lint: %s (abi %s)\n", st->error, st->abi);
	}
	return failed ? 1 : 0;
}

/* The TAP report: every file read for every ABI (or only for abi). */
static int lint(int n, char **files, const char *abi)
{
	static const char *const abis[] = SCN_ABIS;
	static struct scn_file st;
	char (*errors)[300] = calloc((size_t)n, sizeof(*errors));
	int r = 0;

	if (!errors)
		return 1;
	for (int a = 0; a < SCN_NABIS; a++) {
		if (abi && strcmp(abi, abis[a]))
			continue;
		memset(&st, 0, sizeof(st));
		st.abi = abis[a];
		nseen = 0;
		r |= parse_all(n, files, &st, NULL, NULL, NULL, NULL, NULL, errors);
	}
	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		if (errors[i][0])
			printf("not ok - lint %s # %s\n", files[i], errors[i]);
		else
			printf("ok - lint %s\n", files[i]);
	}
	free(errors);
	return r;
}

int main(int argc, char **argv)
{
	static struct scn_file st;
	int stock = 0, patched = 0, first = 1;
	const char *count = NULL, *abi = NULL, *series = NULL, *only = NULL;
	int boots = 0, r;

	if (argc == 2 && !strcmp(argv[1], "--abis")) {
		static const char *const abis[] = SCN_ABIS;

		for (int a = 0; a < SCN_NABIS; a++)
			puts(abis[a]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--abis")) {
		char abis[64];

		snprintf(abis, sizeof(abis), "%s", scn_kernel_abis(argv[2]));
		for (char *a = strtok(abis, ","); a; a = strtok(NULL, ","))
			puts(a);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "--abi")) {
		abi = argv[2];
		first = 3;
		if (scn_abi_index(abi) < 0) {
			fprintf(stderr, "scenario-lint: unknown ABI %s (i386, ia32 or x86_64)\n", abi);
			return 2;
		}
	}
	if (argc > first + 1 && !strcmp(argv[first], "--series")) {
		series = argv[first + 1];
		first += 2;
	}
	if (argc > first + 1 && !strcmp(argv[first], "--only")) {
		only = argv[first + 1];
		first += 2;
	}
	if (argc > first && !strcmp(argv[first], "--boots")) {
		boots = 1;
		first++;
	} else if (argc > first + 1 && !strcmp(argv[first], "--count")) {
		count = argv[first + 1];
		first += 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: scenario-lint [--abi ABI] [--series SERIES] "
			"[--only GLOB,...] [--boots | --count TAG] FILE...\n");
		return 2;
	}
	if (!boots && !count)
		return lint(argc - first, argv + first, abi);
	st.abi = abi ? abi : "i386";
	r = parse_all(argc - first, argv + first, &st, count, series, only, &stock, &patched, NULL);
	if (boots && !r)
		for (int i = 0; i < st.nboots; i++)
			printf("%s\t%s\n", st.boots[i].tag, st.boots[i].cmdline);
	if (count && !r)
		printf("stock %d\npatched %d\n", stock, patched);
	return r;
}
