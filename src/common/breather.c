/* SPDX-License-Identifier: MIT */
#include "breather.h"
#include "log.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Set by the SIGXCPU handler: the kernel counted a second of real-time
 * CPU without a sleep (RLIMIT_RTTIME's soft limit). */
static volatile sig_atomic_t xcpu;

static void on_xcpu(int sig)
{
	(void)sig;
	xcpu = 1;
}

void breather_catch_xcpu(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_xcpu;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGXCPU, &sa, NULL);
}

int breather_limit_rttime(uint64_t soft_us, uint64_t hard_us)
{
	/* (with SCHED_RESET_ON_FORK, CPUSchedulingResetOnFork=, in the
	 * policy's bits: kernel/sched/syscalls.c, sched_getscheduler) */
	int policy = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
	struct rlimit rl;

	if (policy != SCHED_RR && policy != SCHED_FIFO)
		return 1;
	if (getrlimit(RLIMIT_RTTIME, &rl) < 0)
		return -errno;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > hard_us)
		rl.rlim_max = hard_us;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > soft_us)
		rl.rlim_cur = soft_us;
	if (rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_RTTIME, &rl) < 0 ? -errno : 0;
}

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

	if (xcpu) {
		/* Not a spin (that never gets here), but the kernel's count
		 * says a second: on a slow, shared VM the ticks it counts run
		 * ahead of this thread's CPU clock.  Sleep now: the count
		 * starts again (kernel/sched/rt.c, enqueue_task_rt). */
		struct timespec pause = {0, BREATHER_PAUSE_US * 1000L};
		xcpu = 0;
		nanosleep(&pause, NULL);
		log_warn("ran 1 s at a real-time priority without sleeping (RLIMIT_RTTIME's soft "
			 "limit, SIGXCPU): slept 1 ms; an overcommitted VM counts the time it "
			 "was not running too");
		return;
	}
	if (getrusage(RUSAGE_THREAD, &ru) < 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) < 0)
		return;
	uint64_t cpu_us = (uint64_t)cpu.tv_sec * 1000000u + (uint64_t)cpu.tv_nsec / 1000u;
	if (!breather_due(b, ru.ru_nvcsw, cpu_us))
		return;
	struct timespec pause = {0, BREATHER_PAUSE_US * 1000L};
	nanosleep(&pause, NULL); /* the sleep moves nvcsw: the next call starts over */
}
