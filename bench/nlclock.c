/* SPDX-License-Identifier: MIT */
/*
 * nlclock: a stopwatch on the kernel's link events, for the benchmarks.  It
 * knows nothing of bondd (it shares no code with it): it keeps its own table
 * of links from one RTM_GETLINK dump and the RTNLGRP_LINK events, and calls
 * a bond (or team) "whole" when it is up, at the MTU given, and has exactly
 * the slaves given, each at that MTU and, for a bond, in that order (read from
 * /sys/class/net/BOND/bonding/slaves, since netlink has no order).
 *
 *   nlclock [options] BOND=SLAVE,SLAVE,... ... [-- COMMAND ARGS...]
 *
 *   --mtu N           the MTU every bond and slave must have (0: any)
 *   --timeout S       give up after S seconds (per round), 10
 *   --drift KIND:LINK recreate:LINK deletes LINK (a veth) and creates it again
 *                     with its peer in --peer-ns (a NIC reset: new ifindex,
 *                     MTU 1500, down, no master); mtu:LINK sets LINK's MTU to
 *                     1500.  The clock starts when the kernel has emitted the
 *                     event of the new link (or of the MTU change), and stops
 *                     when every bond is whole again.
 *   --rounds R        drift R times (with --drift), 1
 *   --peer-ns NS      where the re-created veth's peer goes; it is set up
 *                     after each round, outside the clock
 *   --settle MS       quiet time on the event stream before the next round, 150
 *   --tag JSON        fields put first in every JSON line printed
 *   --syscall-cost    prints what one system call (getppid) costs here, as
 *                     {"part": "syscall-cost", "us": X}, and exits: the scale
 *                     for counts of system calls (one is dear in a UML guest)
 *
 * Without --drift, the clock starts once the event subscription is live.  If
 * a COMMAND is given it is then started (at normal priority; its process
 * start counts in the time) and nlclock prints its pid; otherwise "watching"
 * is printed and whatever the caller does next is timed.  Each result is one
 * JSON line on stdout: {TAG, "round": i, "ms": X, "first_event_ms": Y,
 * "first_whole_ms": Z, "events": E}, where first_event_ms is when the first
 * link event arrived (for a COMMAND: roughly when it started talking to the
 * kernel), first_whole_ms when the first bond was whole, and events how
 * many link events it took.  With a COMMAND, "cpu_ms" (from
 * /proc/PID/schedstat), "user_ms" and "sys_ms" (from /proc/PID/stat, in
 * clock ticks) say how much CPU the command's process had used when the
 * last bond became whole (a command that has exited by then is read as a
 * zombie, before it is reaped).  Also "nlclock_cpu_ms", its own CPU time,
 * and "machine_ms", the whole machine's user, system, softirq and idle time
 * meanwhile (/proc/stat, in clock ticks).  A round that times out has "ms": null and
 * "missing": what was still wrong.
 *
 * nlclock runs at a real-time priority (SCHED_FIFO), so in a one-CPU guest
 * the kernel runs it as soon as an event is queued for it, before the
 * daemon under test: the clock does not start late.  Its own work on each
 * event is counted in the time, which errs on the slow side.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include <libmnl/libmnl.h>

#define MAX_BONDS 256
#define MAX_SLAVES 32

struct link {
	int ifindex; /* 0: free slot */
	char name[IFNAMSIZ];
	unsigned mtu, flags;
	int master;
};

struct bond {
	char name[IFNAMSIZ];
	char slaves[MAX_SLAVES][IFNAMSIZ];
	int n_slaves;
	char order[MAX_SLAVES * IFNAMSIZ + 2]; /* "a b c\n", as sysfs prints it */
	bool whole;
};

static struct link *links;
static size_t n_links, cap_links;
static struct bond bonds[MAX_BONDS];
static int n_bonds, n_whole;
static unsigned want_mtu;
static char why[256];
static unsigned long n_events;
static double first_event, first_whole;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
	fprintf(stderr, "nlclock: %s: %s\n", what, strerror(errno));
	exit(2);
}

static struct link *by_index(int ifindex)
{
	for (size_t i = 0; i < n_links; i++)
		if (links[i].ifindex == ifindex)
			return &links[i];
	return NULL;
}

static struct link *by_name(const char *name)
{
	for (size_t i = 0; i < n_links; i++)
		if (links[i].ifindex && strcmp(links[i].name, name) == 0)
			return &links[i];
	return NULL;
}

/* Returns true when whole, else leaves the reason in why. */
static bool check(struct bond *b)
{
	const struct link *m = by_name(b->name);
	if (!m)
		return snprintf(why, sizeof(why), "%s does not exist", b->name), false;
	if (!(m->flags & IFF_UP))
		return snprintf(why, sizeof(why), "%s is down", b->name), false;
	if (want_mtu && m->mtu != want_mtu)
		return snprintf(why, sizeof(why), "%s has MTU %u", b->name, m->mtu), false;
	int enslaved = 0;
	for (size_t i = 0; i < n_links; i++)
		if (links[i].ifindex && links[i].master == m->ifindex)
			enslaved++;
	if (enslaved != b->n_slaves)
		return snprintf(why, sizeof(why), "%s has %d slaves, not %d", b->name, enslaved,
				b->n_slaves), false;
	for (int i = 0; i < b->n_slaves; i++) {
		const struct link *s = by_name(b->slaves[i]);
		if (!s || s->master != m->ifindex)
			return snprintf(why, sizeof(why), "%s is not enslaved", b->slaves[i]), false;
		if (want_mtu && s->mtu != want_mtu)
			return snprintf(why, sizeof(why), "%s has MTU %u", b->slaves[i], s->mtu), false;
	}
	/* Netlink agrees; the order is only in sysfs (a team has none). */
	char path[64], buf[sizeof(b->order)];
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", b->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (strcmp(buf, b->order) != 0)
		return snprintf(why, sizeof(why), "%s's order is %s", b->name, strtok(buf, "\n")),
		       false;
	return true;
}

static void count_whole(int delta)
{
	n_whole += delta;
	if (delta > 0 && !first_whole)
		first_whole = now_ms();
}

static void recheck_all(void)
{
	n_whole = 0;
	for (int i = 0; i < n_bonds; i++)
		n_whole += bonds[i].whole = check(&bonds[i]);
}

/* The bonds an event about link L (or master M) can change. */
static void recheck_for(const char *name, int master)
{
	const struct link *m = master ? by_index(master) : NULL;
	for (int i = 0; i < n_bonds; i++) {
		struct bond *b = &bonds[i];
		bool hit = strcmp(b->name, name) == 0 || (m && strcmp(b->name, m->name) == 0);
		for (int j = 0; !hit && j < b->n_slaves; j++)
			hit = strcmp(b->slaves[j], name) == 0;
		if (!hit)
			continue;
		bool w = check(b);
		count_whole((int)w - (int)b->whole);
		b->whole = w;
	}
}

static int attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);
	if (type <= IFLA_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	bool *is_event = data;
	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return MNL_CB_OK;
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[IFLA_MAX + 1] = {0};
	mnl_attr_parse(nlh, sizeof(*ifi), attr_cb, tb);
	struct link *l = by_index(ifi->ifi_index);
	int old_master = l ? l->master : 0;
	char name[IFNAMSIZ] = "";
	if (*is_event) {
		if (!n_events++)
			first_event = now_ms();
	}
	if (nlh->nlmsg_type == RTM_DELLINK) {
		if (l) {
			snprintf(name, sizeof(name), "%s", l->name);
			l->ifindex = 0;
		}
	} else {
		if (!l) {
			l = by_index(0);
			if (!l) {
				if (n_links == cap_links) {
					cap_links = cap_links ? 2 * cap_links : 256;
					links = realloc(links, cap_links * sizeof(*links));
					if (!links)
						die("realloc");
				}
				l = &links[n_links++];
			}
			memset(l, 0, sizeof(*l));
			l->ifindex = ifi->ifi_index;
		}
		l->flags = ifi->ifi_flags;
		if (tb[IFLA_IFNAME])
			snprintf(l->name, sizeof(l->name), "%s", mnl_attr_get_str(tb[IFLA_IFNAME]));
		if (tb[IFLA_MTU])
			l->mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
		l->master = tb[IFLA_MASTER] ? (int)mnl_attr_get_u32(tb[IFLA_MASTER]) : 0;
		snprintf(name, sizeof(name), "%s", l->name);
	}
	if (*is_event && name[0]) {
		recheck_for(name, old_master);
		if (l && l->ifindex && l->master != old_master)
			recheck_for(name, l->master);
	}
	return MNL_CB_OK;
}

static struct mnl_socket *mon, *req, *peer;
static unsigned seq = 1;
static char rbuf[1 << 16] __attribute__((aligned(8)));

/* Reads every event queued on the monitor socket, without blocking. */
static void drain(void)
{
	bool is_event = true;
	for (;;) {
		ssize_t n = recv(mnl_socket_get_fd(mon), rbuf, sizeof(rbuf), MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0 && errno == ENOBUFS) {
			fprintf(stderr, "nlclock: events lost (ENOBUFS)\n");
			exit(2);
		}
		if (n <= 0)
			die("recv");
		mnl_cb_run(rbuf, (size_t)n, 0, 0, link_cb, &is_event);
	}
}

/* Sends one request and waits for its answer (ack, or a dump's end). */
static int talk(struct mnl_socket *s, struct nlmsghdr *nlh, double *sent)
{
	bool is_event = false;
	nlh->nlmsg_seq = seq++;
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0)
		die("sendto");
	if (sent)
		*sent = now_ms();
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s, rbuf, sizeof(rbuf));
		if (n < 0)
			die("recvfrom");
		int r = mnl_cb_run(rbuf, (size_t)n, nlh->nlmsg_seq, mnl_socket_get_portid(s), link_cb,
				   &is_event);
		if (r <= MNL_CB_STOP)
			return r < 0 ? -errno : 0;
	}
}

/* One dump, read to its end, each link into the table; true when the
 * kernel marked it interrupted (NLM_F_DUMP_INTR). */
static bool dump_interrupted(struct mnl_socket *s, struct nlmsghdr *nlh)
{
	bool is_event = false, intr = false;
	nlh->nlmsg_seq = seq++;
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0)
		die("sendto");
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s, rbuf, sizeof(rbuf));
		if (n < 0)
			die("recvfrom");
		int left = (int)n;
		for (const struct nlmsghdr *m = (const void *)rbuf; mnl_nlmsg_ok(m, left);
		     m = mnl_nlmsg_next(m, &left)) {
			if (m->nlmsg_seq != nlh->nlmsg_seq)
				continue;
			intr |= (m->nlmsg_flags & NLM_F_DUMP_INTR) != 0;
			if (m->nlmsg_type == NLMSG_DONE)
				return intr;
			if (m->nlmsg_type == NLMSG_ERROR) {
				errno = EPROTO;
				die("dump");
			}
			link_cb(m, &is_event);
		}
	}
}

static struct nlmsghdr *link_msg(char *buf, int type, unsigned flags, const char *name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (unsigned short)type;
	nlh->nlmsg_flags = (unsigned short)(NLM_F_REQUEST | flags);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	if (name)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static void must(int err, const char *what)
{
	if (err < 0) {
		errno = -err;
		die(what);
	}
}

/* Waits for events for at most ms; returns false at the deadline. */
static bool wait_event(double deadline)
{
	double left = deadline - now_ms();
	if (left <= 0)
		return false;
	struct pollfd p = {.fd = mnl_socket_get_fd(mon), .events = POLLIN};
	int r = poll(&p, 1, (int)left + 1);
	if (r < 0 && errno != EINTR)
		die("poll");
	if (r > 0)
		drain();
	return true;
}

/* Until every bond is whole or the deadline; returns the time, or -1. */
static double until_whole(double t0, double timeout_ms)
{
	while (n_whole < n_bonds)
		if (!wait_event(t0 + timeout_ms))
			return -1;
	return now_ms() - t0;
}

/* Until the event stream has been quiet for ms (at most 3 s). */
static void settle(double ms)
{
	double end = now_ms() + 3000;
	unsigned long before;
	do {
		before = n_events;
		double quiet = now_ms() + ms;
		while (now_ms() < quiet && n_events == before)
			wait_event(quiet);
	} while (n_events != before && now_ms() < end);
}

static const char *tag = "";
static char cpu[400];

/* The guest's CPU time so far, from /proc/stat's "cpu" line, in ticks:
 * user (with nice), system, softirq (with irq), idle (with iowait). */
struct cpustat {
	unsigned long long user, sys, softirq, idle;
};

static struct cpustat read_stat(void)
{
	unsigned long long v[8] = {0};
	struct cpustat c = {0};
	FILE *f = fopen("/proc/stat", "r");
	if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			&v[4], &v[5], &v[6], &v[7]) == 8)
		c = (struct cpustat){v[0] + v[1], v[2], v[5] + v[6] + v[7], v[3] + v[4]};
	if (f)
		fclose(f);
	return c;
}

static double self_cpu_ms(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");
	if (f && fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	if (f)
		fclose(f);
	return (double)ns / 1e6;
}

/* The CPU a process has used so far, as JSON fields (or nothing). */
static void read_cpu(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long run_ns = 0, ut = 0, st = 0;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	int ok = fscanf(f, "%llu", &run_ns) == 1;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		fclose(f);
		/* After the ")" that ends the command name: field 3 on. */
		char *p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
				 &st) != 2)
			ok = 0;
	}
	double tick = 1000.0 / (double)sysconf(_SC_CLK_TCK);
	if (ok)
		snprintf(cpu, sizeof(cpu), ", \"cpu_ms\": %.1f, \"user_ms\": %.0f, \"sys_ms\": %.0f",
			 (double)run_ns / 1e6, (double)ut * tick, (double)st * tick);
}

/* The whole machine's CPU time since c0, and nlclock's own since self0. */
static void add_machine(struct cpustat c0, double self0)
{
	struct cpustat c = read_stat();
	double tick = 1000.0 / (double)sysconf(_SC_CLK_TCK);
	size_t n = strlen(cpu);
	snprintf(cpu + n, sizeof(cpu) - n,
		 ", \"nlclock_cpu_ms\": %.1f, \"machine_ms\": {\"user\": %.0f, \"system\": %.0f, "
		 "\"softirq\": %.0f, \"idle\": %.0f}",
		 self_cpu_ms() - self0, (double)(c.user - c0.user) * tick,
		 (double)(c.sys - c0.sys) * tick, (double)(c.softirq - c0.softirq) * tick,
		 (double)(c.idle - c0.idle) * tick);
}

static void report(int round, double ms, double t0)
{
	printf("{%s%s\"round\": %d, ", tag, *tag ? ", " : "", round);
	if (ms < 0) {
		recheck_all();
		for (int i = 0; i < n_bonds; i++)
			if (!bonds[i].whole) {
				check(&bonds[i]);
				break;
			}
		printf("\"ms\": null, \"missing\": \"%s\"}\n", why);
	} else {
		printf("\"ms\": %.3f, \"first_event_ms\": %.3f, \"first_whole_ms\": %.3f, "
		       "\"events\": %lu%s}\n", ms, n_events ? first_event - t0 : -1.0,
		       first_whole ? first_whole - t0 : -1.0, n_events, cpu);
	}
	fflush(stdout);
}

static int parse_bond(const char *arg)
{
	if (n_bonds == MAX_BONDS)
		return -1;
	struct bond *b = &bonds[n_bonds];
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || eq - arg >= IFNAMSIZ)
		return -1;
	snprintf(b->name, sizeof(b->name), "%.*s", (int)(eq - arg), arg);
	char *list = strdup(eq + 1);
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		if (b->n_slaves == MAX_SLAVES || strlen(t) >= IFNAMSIZ)
			return -1;
		snprintf(b->slaves[b->n_slaves++], IFNAMSIZ, "%s", t);
		strcat(b->order, b->n_slaves > 1 ? " " : "");
		strcat(b->order, t);
	}
	strcat(b->order, "\n");
	free(list);
	n_bonds++;
	return 0;
}

static struct mnl_socket *open_rtnl(unsigned groups)
{
	struct mnl_socket *s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s || mnl_socket_bind(s, groups, MNL_SOCKET_AUTOPID) < 0)
		die("netlink");
	return s;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"mtu", required_argument, NULL, 'm'},     {"timeout", required_argument, NULL, 't'},
		{"drift", required_argument, NULL, 'd'},   {"rounds", required_argument, NULL, 'r'},
		{"peer-ns", required_argument, NULL, 'p'}, {"settle", required_argument, NULL, 's'},
		{"tag", required_argument, NULL, 'g'},     {"syscall-cost", no_argument, NULL, 'c'},
		{NULL, 0, NULL, 0},
	};
	double timeout_ms = 10000, settle_ms = 150;
	const char *drift = NULL, *peer_ns = NULL;
	int rounds = 1, c;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'm': want_mtu = (unsigned)strtoul(optarg, NULL, 10); break;
		case 't': timeout_ms = strtod(optarg, NULL) * 1000; break;
		case 'd': drift = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'p': peer_ns = optarg; break;
		case 's': settle_ms = strtod(optarg, NULL); break;
		case 'g': tag = optarg; break;
		case 'c': {
			enum { N = 20000 };
			double t = now_ms();
			for (int i = 0; i < N; i++)
				syscall(SYS_getppid);
			printf("{\"part\": \"syscall-cost\", \"us\": %.2f}\n", (now_ms() - t) * 1e3 / N);
			return 0;
		}
		default: return 64;
		}
	}
	char **cmd = NULL;
	for (; optind < argc; optind++) {
		if (strcmp(argv[optind], "--") == 0) {
			cmd = argv[optind + 1] ? &argv[optind + 1] : NULL;
			break;
		}
		if (parse_bond(argv[optind]) < 0) {
			fprintf(stderr, "nlclock: bad bond spec %s\n", argv[optind]);
			return 64;
		}
	}
	const char *drift_link = drift ? strchr(drift, ':') : NULL;
	bool recreate = drift && strncmp(drift, "recreate:", 9) == 0;
	if (!n_bonds || (drift && (!drift_link || (!recreate && strncmp(drift, "mtu:", 4) != 0))) ||
	    (recreate && !peer_ns)) {
		fprintf(stderr, "usage: nlclock [--mtu N] [--timeout S] [--drift recreate:LINK "
				"--peer-ns NS | --drift mtu:LINK] [--rounds R] [--settle MS] "
				"[--tag JSON] BOND=SLAVE,... ... [-- COMMAND...]\n");
		return 64;
	}
	if (drift_link)
		drift_link++;

	mon = open_rtnl(RTMGRP_LINK);
	int big = 4 << 20;
	setsockopt(mnl_socket_get_fd(mon), SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	req = open_rtnl(0);
	int peer_fd = -1;
	if (peer_ns) {
		char path[128];
		snprintf(path, sizeof(path), "/run/netns/%s", peer_ns);
		int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		peer_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (self < 0 || peer_fd < 0 || setns(peer_fd, CLONE_NEWNET) < 0)
			die(path);
		peer = open_rtnl(0);
		if (setns(self, CLONE_NEWNET) < 0)
			die("setns back");
		close(self);
	}

	/* Subscribed first, then the dump: nothing can fall in between. */
	static char buf[8192] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = link_msg(buf, RTM_GETLINK, NLM_F_DUMP, NULL);
	/* A dump the kernel marks interrupted (NLM_F_DUMP_INTR: links came
	 * or went meanwhile, as a daemon under test that starts at once
	 * makes them) is taken again; the table only adds and updates. */
	for (int tries = 0; dump_interrupted(req, nlh) && tries < 50; tries++)
		nlh = link_msg(buf, RTM_GETLINK, NLM_F_DUMP, NULL);
	drain();
	recheck_all();

	struct sched_param sp = {.sched_priority = 50};
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) < 0)
		fprintf(stderr, "nlclock: warning: no real-time priority (%s); "
				"the clock may start late\n", strerror(errno));

	if (!drift) {
		n_events = 0;
		first_whole = 0;
		struct cpustat c0 = read_stat();
		double self0 = self_cpu_ms();
		double t0 = now_ms();
		pid_t pid = 0;
		if (cmd) {
			fflush(stdout);
			pid = fork();
			if (pid < 0)
				die("fork");
			if (pid == 0) {
				int null = open("/dev/null", O_RDONLY);
				dup2(null, 0);
				dup2(2, 1);
				execvp(cmd[0], cmd);
				_exit(127);
			}
			fprintf(stderr, "nlclock: started %s, pid %d\n", cmd[0], (int)pid);
			printf("pid %d\n", (int)pid);
		} else {
			printf("watching\n");
		}
		fflush(stdout);
		double ms = until_whole(t0, timeout_ms);
		if (cmd)
			read_cpu(pid);
		add_machine(c0, self0);
		report(1, ms, t0);
		return ms < 0;
	}

	int failed = 0;
	for (int r = 1; r <= rounds; r++) {
		if (n_whole < n_bonds && until_whole(now_ms(), timeout_ms) < 0) {
			report(r, -1, 0);
			return 1;
		}
		double t0;
		if (recreate) {
			nlh = link_msg(buf, RTM_DELLINK, NLM_F_ACK, drift_link);
			must(talk(req, nlh, NULL), "delete");
			nlh = link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK, drift_link);
			struct nlattr *li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
			mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
			struct nlattr *data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
			struct nlattr *pe = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
			struct ifinfomsg *pifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*pifi));
			pifi->ifi_family = AF_UNSPEC;
			char pname[IFNAMSIZ];
			snprintf(pname, sizeof(pname), "%s", drift_link);
			pname[0] = 'p';
			mnl_attr_put_strz(nlh, IFLA_IFNAME, pname);
			mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)peer_fd);
			mnl_attr_nest_end(nlh, pe);
			mnl_attr_nest_end(nlh, data);
			mnl_attr_nest_end(nlh, li);
			drain(); /* the deletion's events, before the clock */
			n_events = 0;
			/* The kernel emits the new link's event while it handles
			 * the request: it is queued when sendto returns, and at our
			 * priority nothing else ran in between. */
			must(talk(req, nlh, &t0), "create");
		} else {
			nlh = link_msg(buf, RTM_NEWLINK, NLM_F_ACK, drift_link);
			mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
			drain();
			n_events = 0;
			must(talk(req, nlh, &t0), "set mtu");
		}
		drain();
		first_whole = 0;
		double ms = until_whole(t0, timeout_ms);
		report(r, ms, t0);
		if (ms < 0)
			failed++;
		settle(settle_ms);
		if (recreate) {
			char pname[IFNAMSIZ];
			snprintf(pname, sizeof(pname), "%s", drift_link);
			pname[0] = 'p';
			nlh = link_msg(buf, RTM_NEWLINK, NLM_F_ACK, pname);
			struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
			ifi->ifi_flags = IFF_UP;
			ifi->ifi_change = IFF_UP;
			must(talk(peer, nlh, NULL), "peer up");
			settle(settle_ms);
		}
	}
	return failed != 0;
}
