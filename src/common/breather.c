/* SPDX-License-Identifier: MIT */
#include "breather.h"

#include <sys/resource.h>
#include <time.h>

bool breather_due(struct breather *b, long nvcsw, uint64_t cpu_us)
{
	if (nvcsw != b->nvcsw || cpu_us < b->since_us) {
		b->nvcsw = nvcsw;
		b->since_us = cpu_us;
		return false;
	}
	return cpu_us - b->since_us >= BREATHER_WORK_US;
}

void breather_check(struct breather *b)
{
	struct rusage ru;
	struct timespec cpu;

	if (getrusage(RUSAGE_THREAD, &ru) < 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) < 0)
		return;
	uint64_t cpu_us = (uint64_t)cpu.tv_sec * 1000000u + (uint64_t)cpu.tv_nsec / 1000u;
	if (!breather_due(b, ru.ru_nvcsw, cpu_us))
		return;
	struct timespec pause = {0, BREATHER_PAUSE_US * 1000L};
	nanosleep(&pause, NULL); /* the sleep moves nvcsw: the next call starts over */
}
