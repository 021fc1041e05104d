// SPDX-License-Identifier: GPL-2.0
/*
 * scenario-lint FILE...: parse scenario files on the host, in the order
 * given, with one parser state (as the guest does).
 *
 *   (no option)  print one TAP line per file, "ok - lint FILE" or
 *                "not ok - lint FILE # error"
 *   --boots      print the boots, one per line: TAG, a tab, the kernel
 *                parameters; exit 1 on any syntax error
 *   --count TAG  print how many scenarios TAG runs on each kernel:
 *                "stock N" and "patched N"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define MAX_SCENARIOS 1024

/* Scenario names are how results are reported: they must be unique. */
static const char *duplicate(const char *name)
{
	static char seen[MAX_SCENARIOS][128];
	static int n;

	for (int i = 0; i < n; i++)
		if (!strcmp(seen[i], name))
			return seen[i];
	if (n < MAX_SCENARIOS)
		strcpy(seen[n++], name);
	return NULL;
}

static int parse_all(int n, char **files, struct scn_file *st, const char *count_boot,
		     int *stock, int *patched, int tap)
{
	int errors = 0;

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
			if (!count_boot && duplicate(s.name)) {
				snprintf(st->error, sizeof(st->error), "%s:%d: scenario name %s used twice",
					 files[i], s.line, s.name);
				r = -1;
				break;
			}
			if (!count_boot || strcmp(s.boot, count_boot))
				continue;
			*stock += strcmp(s.kernel, "patched") != 0;
			*patched += strcmp(s.kernel, "stock") != 0;
		}
		fclose(f);
		if (r < 0)
			errors++;
		if (tap && r < 0)
			printf("not ok - lint %s # %s\n", files[i], st->error);
		else if (tap)
			printf("ok - lint %s\n", files[i]);
		else if (r < 0)
			fprintf(stderr, "scenario-lint: %s\n", st->error);
	}
	return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct scn_file st;
	int stock = 0, patched = 0, first = 1;
	const char *count = NULL;
	int boots = 0, r;

	if (argc > 1 && !strcmp(argv[1], "--boots")) {
		boots = 1;
		first = 2;
	} else if (argc > 2 && !strcmp(argv[1], "--count")) {
		count = argv[2];
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: scenario-lint [--boots | --count TAG] FILE...\n");
		return 2;
	}
	r = parse_all(argc - first, argv + first, &st, count, &stock, &patched,
		      !boots && !count);
	if (boots && !r)
		for (int i = 0; i < st.nboots; i++)
			printf("%s\t%s\n", st.boots[i].tag, st.boots[i].cmdline);
	if (count && !r)
		printf("stock %d\npatched %d\n", stock, patched);
	return r;
}
