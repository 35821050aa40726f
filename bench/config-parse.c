/* SPDX-License-Identifier: MIT */
/*
 * config-parse [BONDS [SLAVES [RUNS]]]: how long config_parse takes on a
 * generated file of BONDS bonds (default 1024, the limit) of SLAVES slaves
 * (default 32, the limit): the cost of every start and every reload of the
 * largest config bondd accepts.  Prints the file size and the median and
 * worst of RUNS parses (default 5).  A benchmark: it judges nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int bonds = argc > 1 ? atoi(argv[1]) : 1024;
	int slaves = argc > 2 ? atoi(argv[2]) : 32;
	int runs = argc > 3 ? atoi(argv[3]) : 5;
	if (bonds < 1 || slaves < 0 || runs < 1 || runs > 1000) {
		fprintf(stderr, "usage: config-parse [BONDS [SLAVES [RUNS]]]\n");
		return 2;
	}
	size_t cap = (size_t)bonds * (64 + (size_t)slaves * 20), len = 0;
	char *text = malloc(cap);
	double *ms = calloc((size_t)runs, sizeof(*ms));
	if (!text || !ms)
		return 1;
	for (int b = 0; b < bonds; b++) {
		len += (size_t)snprintf(text + len, cap - len, "[b%d]\nmtu = 9000\nslaves =", b);
		for (int i = 0; i < slaves; i++)
			len += (size_t)snprintf(text + len, cap - len, " s%d.%d", b, i);
		len += (size_t)snprintf(text + len, cap - len, "\n");
	}
	for (int r = 0; r < runs; r++) {
		struct desired d = {0};
		struct config_diag diag = {0};
		double t0 = now_ms();
		int err = config_parse("bench.conf", text, len, &d, &diag);
		ms[r] = now_ms() - t0;
		if (err) {
			const struct config_diagnostic *e = config_diag_first(&diag, CONFIG_ERROR);
			char *line = e ? config_diagnostic_format(e) : NULL;
			fprintf(stderr, "config-parse: %s\n", line ? line : "parse failed");
			free(line);
			return 1;
		}
		desired_free(&d);
		config_diag_free(&diag);
	}
	qsort(ms, (size_t)runs, sizeof(*ms), by_value);
	printf("config_parse: %d bonds x %d slaves, %zu bytes: median %.2f ms, max %.2f ms "
	       "(%d runs)\n", bonds, slaves, len, ms[runs / 2], ms[runs - 1], runs);
	free(text);
	free(ms);
	return 0;
}
