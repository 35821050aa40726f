/* SPDX-License-Identifier: MIT */
/*
 * A pause in long runs of work, for bondd at a real-time priority
 * (bondd.service: CPUSchedulingPolicy=rr; RLIMIT_RTTIME set by bondd itself,
 * breather_limit_rttime).  The kernel counts
 * the CPU time a real-time task uses without sleeping and sends SIGXCPU,
 * then SIGKILL, past RLIMIT_RTTIME (kernel/sched/rt.c watchdog; the count
 * starts again when the task is woken from a sleep).  That is the bound on
 * a bondd that spins.  A long pass that is no spin (a start with hundreds
 * of bonds: the kernel answers each request before bondd reads the answer,
 * so bondd never sleeps) must not reach it: after BREATHER_WORK_US of CPU
 * time without a sleep bondd sleeps BREATHER_PAUSE_US, which also lets the
 * plain processes on its CPU run.  Time is passed in (holds.h style).
 */
#ifndef BONDD_BREATHER_H
#define BONDD_BREATHER_H

#include <stdbool.h>
#include <stdint.h>

#define BREATHER_WORK_US 100000 /* far below BREATHER_RTTIME_SOFT_US */
/* RLIMIT_RTTIME: SIGXCPU (a warning, breather_catch_xcpu) past 1 s of
 * real-time CPU without a sleep, SIGKILL past 10 s. */
#define BREATHER_RTTIME_SOFT_US 1000000
#define BREATHER_RTTIME_HARD_US 10000000
#define BREATHER_PAUSE_US 1000

struct breather {
	long nvcsw;        /* voluntary context switches when last seen */
	uint64_t since_us; /* this thread's CPU time at the last sleep seen */
};

/* Given this thread's voluntary context switches and CPU time now: true
 * when it has worked BREATHER_WORK_US since it last slept (it should sleep
 * now); a sleep seen (nvcsw moved) starts the count again. */
bool breather_due(struct breather *b, long nvcsw, uint64_t cpu_us);

/* SIGXCPU (RLIMIT_RTTIME's soft limit) becomes a warning: the next
 * breather_check sleeps at once and logs it; the hard limit still ends a
 * bondd that spins.  Call once at start. */
void breather_catch_xcpu(void);

/* When this process runs at a real-time policy (SCHED_RR or SCHED_FIFO):
 * sets RLIMIT_RTTIME to soft_us and hard_us, never above what it already
 * is (lowering a limit needs no privilege).  Called after
 * breather_catch_xcpu, so that the soft limit's SIGXCPU always finds its
 * handler: the unit sets no LimitRTTIME=, which would also cover the time
 * before bondd's first instruction and every ExecReload= client (on a
 * loaded VM both were killed by SIGXCPU before their main).  Returns 0, 1
 * when not real-time (nothing set), or -errno. */
int breather_limit_rttime(uint64_t soft_us, uint64_t hard_us);

/* Reads both for this thread and sleeps when due (at once after a
 * SIGXCPU).  Cheap enough to call
 * after every request (two system calls). */
void breather_check(struct breather *b);

#endif
