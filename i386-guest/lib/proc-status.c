// SPDX-License-Identifier: GPL-2.0
#include "proc-status.h"

#include <stdio.h>
#include <string.h>

#define UNKNOWN "unknown"

/* StackGuardGap's value ("    1024 kB") in bytes; "unknown" if not in kB. */
static void gap_bytes(const char *text, char *out, size_t len)
{
	unsigned long long kb;
	char unit[4];

	if (sscanf(text, "%llu %3s", &kb, unit) == 2 && !strcmp(unit, "kB"))
		snprintf(out, len, "%llu", kb * 1024);
	else
		snprintf(out, len, UNKNOWN);
}

/* "Uid:\treal\teffective\tsaved\tfs": the second column. */
static void effective_id(const char *text, char *out, size_t len)
{
	char real[16], eff[16];

	if (sscanf(text, "%15s %15s", real, eff) == 2)
		snprintf(out, len, "%s", eff);
}

int proc_status(int pid, struct proc_status *st)
{
	static const char gap_key[] = "StackGuardGap:";
	char path[64], line[256];
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	f = fopen(path, "re");
	snprintf(st->euid, sizeof(st->euid), UNKNOWN);
	snprintf(st->egid, sizeof(st->egid), UNKNOWN);
	snprintf(st->capeff, sizeof(st->capeff), UNKNOWN);
	snprintf(st->gap, sizeof(st->gap), "%s", f ? "none" : UNKNOWN);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, gap_key, sizeof(gap_key) - 1))
			gap_bytes(line + sizeof(gap_key) - 1, st->gap, sizeof(st->gap));
		else if (!strncmp(line, "Uid:", 4))
			effective_id(line + 4, st->euid, sizeof(st->euid));
		else if (!strncmp(line, "Gid:", 4))
			effective_id(line + 4, st->egid, sizeof(st->egid));
		else
			sscanf(line, "CapEff: %63s", st->capeff);
	}
	fclose(f);
	return 0;
}
