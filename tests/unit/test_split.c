/* SPDX-License-Identifier: MIT */
/*
 * The privilege split (status_ipc.h): its pure decisions case by case (when
 * bondd makes a snapshot, the token buckets that bound a user and the
 * status process, which frames each side accepts), and the split itself
 * with real processes over a real socket: replies come from an
 * unprivileged child, a flood of requests costs bondd's side a bounded
 * number of snapshots, events reach watchers, the status process is
 * started again when it dies.  No kernel: the view is a fixture.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "clock.h"
#include "status_ipc.h"
#include "status_pacing.h"
#include "status_split.h"
#include "token_bucket.h"

/* --- snap_pacing_step ---------------------------------------------------- */

static void pacing_cases(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		struct snap_pacing p;
		int64_t now;
		enum snap_step want;
		int64_t at;
	} cases[] = {
		{"no request", {.wanted = false}, 1000, SNAP_NOTHING, 0},
		{"first ever: fork", {.wanted = true}, 1000, SNAP_FORK, 0},
		{"unchanged: the last holds", {.wanted = true, .have = true, .gen = 5, .snap_gen = 5,
			.last_fork_ms = 900, .last_answer_ms = 900}, 1000, SNAP_SAME, 0},
		{"unchanged, answered 5 ms ago: wait", {.wanted = true, .have = true, .gen = 5,
			.snap_gen = 5, .last_answer_ms = 995}, 1000, SNAP_WAIT, 995 + SNAP_ANSWER_GAP_MS},
		{"changed, forked long ago: fork", {.wanted = true, .have = true, .gen = 6,
			.snap_gen = 5, .last_fork_ms = 500}, 1000, SNAP_FORK, 0},
		{"changed, forked 50 ms ago: wait", {.wanted = true, .have = true, .gen = 6,
			.snap_gen = 5, .last_fork_ms = 950}, 1000, SNAP_WAIT, 950 + SNAP_FORK_GAP_MS},
		{"forced (no snapshot there), unchanged: fork", {.wanted = true, .force = true,
			.have = true, .gen = 5, .snap_gen = 5, .last_fork_ms = 500}, 1000, SNAP_FORK, 0},
		{"forced within the gap: wait", {.wanted = true, .force = true, .have = true,
			.gen = 5, .snap_gen = 5, .last_fork_ms = 900}, 1000, SNAP_WAIT, 900 + SNAP_FORK_GAP_MS},
		{"none made yet (new status process): fork though unchanged", {.wanted = true,
			.have = false, .gen = 5, .snap_gen = 5, .last_fork_ms = 100}, 1000, SNAP_FORK, 0},
		{"at the gap's end exactly: fork", {.wanted = true, .have = true, .gen = 6,
			.snap_gen = 5, .last_fork_ms = 800}, 800 + SNAP_FORK_GAP_MS, SNAP_FORK, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t at = 0;
		enum snap_step got = snap_pacing_step(&cases[i].p, cases[i].now, &at);
		if (got != cases[i].want || (got == SNAP_WAIT && at != cases[i].at))
			fail_msg("%s: step %d at %lld, want %d at %lld", cases[i].name, (int)got,
				 (long long)at, (int)cases[i].want, (long long)cases[i].at);
	}
}

/* However often it is asked, within one second at most 1000/gap forks. */
static void pacing_bounds_forks(void **state)
{
	(void)state;
	struct snap_pacing p = {.have = true};
	unsigned forks = 0;

	for (int64_t now = 1; now <= 1000; now++) {
		int64_t at;
		p.gen++; /* the state changes every millisecond */
		p.wanted = true;
		if (snap_pacing_step(&p, now, &at) == SNAP_FORK) {
			forks++;
			p.wanted = false;
			p.snap_gen = p.gen;
			p.last_fork_ms = p.last_answer_ms = now;
		}
	}
	assert_true(forks <= 1000 / SNAP_FORK_GAP_MS + 1);
	assert_true(forks >= 1000 / SNAP_FORK_GAP_MS);
}

/* --- token buckets --------------------------------------------------------- */

static void bucket_cases(void **state)
{
	(void)state;
	struct token_bucket b;

	tb_init(&b, 10, 1000);
	assert_int_equal(tb_level(&b, 10, 5, 1000), 10);
	for (int i = 0; i < 10; i++)
		assert_true(tb_take(&b, 10, 5, 1, 1000));
	assert_false(tb_take(&b, 10, 5, 1, 1000));          /* empty */
	assert_int_equal(tb_next_ms(&b, 10, 5, 1000), 1200); /* 5 a second: one in 200 ms */
	assert_false(tb_take(&b, 10, 5, 1, 1199));
	assert_true(tb_take(&b, 10, 5, 1, 1200));
	assert_int_equal(tb_level(&b, 10, 5, 100000), 10);  /* never above the burst */
	assert_int_equal(tb_take_up_to(&b, 10, 5, 25, 100000), 10);
	assert_int_equal(tb_take_up_to(&b, 10, 5, 25, 100000), 0);
	assert_false(tb_take(&b, 10, 5, 3, 100400));         /* 2 there, 3 asked: none taken */
	assert_int_equal(tb_level(&b, 10, 5, 100400), 2);
	assert_int_equal(tb_next_ms(&b, 10, 0, 100400), 100400); /* a token is there */
	tb_take(&b, 10, 0, 2, 100400);
	assert_true(tb_next_ms(&b, 10, 0, 100400) == INT64_MAX); /* never refills */
}

/* A second's worth of flood at 1 ms steps takes at most burst + rate. */
static void bucket_bounds_a_second(void **state)
{
	(void)state;
	struct token_bucket b;
	uint64_t got = 0;

	tb_init(&b, 200, 0);
	for (int64_t now = 0; now < 1000; now++)
		got += tb_take_up_to(&b, 200, 100, 50, now);
	assert_true(got <= 200 + 100);
	assert_true(got >= 200 + 99);
}

/* --- frames ------------------------------------------------------------- */

static void frame_cases(void **state)
{
	(void)state;
	static const struct {
		struct ipc_hdr h;
		bool from_bondd;
		int want;
	} cases[] = {
		{{.type = IPC_SNAP_REQ, .len = 0}, false, 0},
		{{.type = IPC_SNAP_REQ, .len = 1}, false, -1},          /* no payload */
		{{.type = IPC_SNAP_REQ, .len = 0}, true, -1},           /* not bondd's to send */
		{{.type = IPC_CHECK, .len = sizeof(struct ipc_names)}, false, 0},
		{{.type = IPC_CHECK, .len = 12}, false, -1},
		{{.type = IPC_RELOAD, .len = 0}, false, 0},
		{{.type = IPC_PROC, .len = sizeof(struct ipc_names)}, false, 0},
		{{.type = IPC_REPLY, .len = 100}, false, -1},           /* only bondd replies */
		{{.type = IPC_REPLY, .len = 100}, true, 0},
		{{.type = IPC_REPLY, .len = IPC_MAX_PAYLOAD + 1}, true, -1},
		{{.type = IPC_EVENT, .len = sizeof(struct event)}, true, 0},
		{{.type = IPC_EVENT, .len = sizeof(struct event) - 1}, true, -1},
		{{.type = IPC_SNAP, .len = 8}, true, 0},
		{{.type = IPC_PING, .len = 0}, true, 0},
		{{.type = IPC_PONG, .len = 0}, false, 0},
		{{.type = IPC_TRY, .len = 4}, false, 0},
		{{.type = IPC_TRY, .len = 0}, false, -1},               /* the seconds */
		{{.type = IPC_TRY, .len = 8}, false, -1},
		{{.type = IPC_TRY, .len = 4}, true, -1},                /* not bondd's to send */
		{{.type = IPC_CONFIRM, .len = 0}, false, 0},
		{{.type = IPC_CONFIRM, .len = 4}, false, -1},
		{{.type = IPC_TRIAL_WAIT, .len = 4}, false, 0},
		{{.type = IPC_TRIAL_WAIT, .len = 2}, false, -1},
		{{.type = IPC_SETTLE, .len = 0}, false, 0},
		{{.type = IPC_SETTLE, .len = 4}, false, -1},
		{{.type = IPC_SETTLE, .len = 0}, true, -1},             /* not bondd's to send */
		{{.type = IPC_SETTLED, .len = 0}, true, 0},
		{{.type = IPC_SETTLED, .len = 0}, false, -1},           /* only bondd answers */
		{{.type = 0, .len = 0}, false, -1},
		{{.type = 999, .len = 0}, true, -1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (ipc_frame_check(&cases[i].h, cases[i].from_bondd) != cases[i].want)
			fail_msg("case %zu: type %u len %u", i, cases[i].h.type, cases[i].h.len);

	struct ipc_render r = {.verb = SV_JSON};
	assert_int_equal(ipc_render_check(&r), 0);
	r.verb = SV_RELOAD;                       /* never rendered */
	assert_int_equal(ipc_render_check(&r), -1);
	r.verb = SV_EXPLAIN;                      /* the last verb rendered */
	assert_int_equal(ipc_render_check(&r), 0);
	r.verb = (enum status_verb)(SV_EXPLAIN + 1);
	assert_int_equal(ipc_render_check(&r), -1);
	r.verb = SV_TRY;                          /* answered by bondd, never rendered */
	assert_int_equal(ipc_render_check(&r), -1);
	r.verb = SV_BRIEF;
	r.req.n = 1;
	memset(r.req.names[0], 'x', IFNAMSIZ);    /* not terminated */
	assert_int_equal(ipc_render_check(&r), -1);
	snprintf(r.req.names[0], IFNAMSIZ, "bond0");
	assert_int_equal(ipc_render_check(&r), 0);
	r.req.n = STATUS_MAX_NAMES + 1;
	assert_int_equal(ipc_render_check(&r), -1);
}

/* --- a reload, try, confirm or trial-wait judged (ipc_ask_judge) ---------- */

static void ask_judge_cases(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum status_verb verb;
		bool has, may;
		uint32_t arg;
		int want;
		const char *why;
	} cases[] = {
		{"reload allowed", SV_RELOAD, true, true, 0, 0, ""},
		{"reload, no handler", SV_RELOAD, false, true, 0, SE_INTERNAL,
		 "reload is not available"},
		{"reload, no handler beats forbidden", SV_RELOAD, false, false, 0, SE_INTERNAL,
		 "reload is not available"},
		{"reload forbidden", SV_RELOAD, true, false, 0, SE_FORBIDDEN,
		 "reload needs root with CAP_NET_ADMIN"},
		{"try, no handler", SV_TRY, false, true, 30, SE_INTERNAL, "trials are not available"},
		{"try forbidden", SV_TRY, true, false, 30, SE_FORBIDDEN,
		 "try needs root with CAP_NET_ADMIN"},
		{"try forbidden beats a bad argument", SV_TRY, true, false, 0, SE_FORBIDDEN,
		 "try needs root with CAP_NET_ADMIN"},
		{"try at the least", SV_TRY, true, true, STATUS_TRY_MIN_S, 0, ""},
		{"try at the most", SV_TRY, true, true, STATUS_TRY_MAX_S, 0, ""},
		{"try below the least", SV_TRY, true, true, STATUS_TRY_MIN_S - 1, SE_BAD_REQUEST,
		 "try: seconds out of range"},
		{"try above the most", SV_TRY, true, true, STATUS_TRY_MAX_S + 1, SE_BAD_REQUEST,
		 "try: seconds out of range"},
		{"confirm allowed, any argument", SV_CONFIRM, true, true, 0, 0, ""},
		{"confirm forbidden", SV_CONFIRM, true, false, 0, SE_FORBIDDEN,
		 "confirm needs root with CAP_NET_ADMIN"},
		{"trial-wait allowed, any number", SV_TRIAL_WAIT, true, true, 123456, 0, ""},
		{"trial-wait forbidden", SV_TRIAL_WAIT, true, false, 1, SE_FORBIDDEN,
		 "trial-wait needs root with CAP_NET_ADMIN"},
		{"trial-wait, no handler", SV_TRIAL_WAIT, false, false, 1, SE_INTERNAL,
		 "trials are not available"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		int got = ipc_ask_judge(cases[i].verb, cases[i].has, cases[i].may, cases[i].arg, &why);
		if (got != cases[i].want || !why || strcmp(why, cases[i].why) != 0)
			fail_msg("%s: %d \"%s\", want %d \"%s\"", cases[i].name, got, why ? why : "(null)",
				 cases[i].want, cases[i].why);
	}
	/* Each ask's frame type and verb, there and back; nothing else is one. */
	static const enum status_verb asks[] = {SV_RELOAD, SV_TRY, SV_CONFIRM, SV_TRIAL_WAIT};
	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]); i++) {
		assert_int_not_equal(ipc_ask_type(asks[i]), 0);
		assert_int_equal(ipc_ask_verb(ipc_ask_type(asks[i])), asks[i]);
	}
	assert_int_equal(ipc_ask_type(SV_JSON), 0);
	assert_int_equal(ipc_ask_type(SV_LINKCHECK), 0);
	assert_int_equal(ipc_ask_verb(IPC_RELOAD), SV_RELOAD);
}

/* Frames with descriptors through a writer and a reader: each descriptor
 * comes out in order with its frame. */
static void writer_reader_pass_fds(void **state)
{
	(void)state;
	int sv[2], p1[2], p2[2];
	struct ipc_writer w = {0};
	struct ipc_reader r = {0};
	struct ipc_hdr h;
	const void *payload;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe(p1), 0);
	assert_int_equal(pipe(p2), 0);
	assert_int_equal(ipc_writer_add(&w, IPC_EVENT, 0, 0, &(struct event){0}, sizeof(struct event), -1), 0);
	uint64_t gen = 7;
	assert_int_equal(ipc_writer_add(&w, IPC_SNAP, 0, 1, &gen, sizeof(gen), p1[0]), 0);
	assert_int_equal(ipc_writer_add(&w, IPC_SNAP, 0, 2, &gen, sizeof(gen), p2[0]), 0);
	assert_int_equal(ipc_writer_flush(&w, sv[0]), 0);
	int frames = 0, fds = 0;
	while (frames < 3) {
		assert_true(ipc_reader_fill(&r, sv[1]) >= 0);
		while (ipc_reader_peek(&r, &h, &payload)) {
			assert_int_equal(ipc_frame_check(&h, true), 0);
			if (h.type == IPC_SNAP) {
				int fd = ipc_reader_take_fd(&r);
				assert_true(fd >= 0);
				/* the descriptor is the pipe's read end of its frame */
				assert_int_equal(write(h.id == 1 ? p1[1] : p2[1], "x", 1), 1);
				char c;
				assert_int_equal(read(fd, &c, 1), 1);
				close(fd);
				fds++;
			}
			frames++;
			ipc_reader_next(&r);
		}
	}
	assert_int_equal(fds, 2);
	ipc_writer_free(&w);
	ipc_reader_free(&r);
	close(sv[0]);
	close(sv[1]);
	close(p1[1]);
	close(p2[1]);
}

/* A snapshot where capset is refused: its own filter refuses what a
 * capability would be used through, and the rest still works. */
static void confined_snapshot_cannot_use_capabilities(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (ipc_confine() < 0)
			_exit(2);
		errno = 0;
		if (socket(AF_NETLINK, SOCK_RAW, 0) >= 0 || errno != EPERM)
			_exit(3);
		if (ioctl(0, FIONREAD, &(int){0}) >= 0 || errno != EPERM)
			_exit(4);
		char buf[64];
		FILE *f = fopen("/proc/self/status", "r"); /* reading goes on */
		if (!f || !fgets(buf, sizeof(buf), f))
			_exit(5);
		fclose(f);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* --- the split with real processes --------------------------------------- */

/* Set while the server's dispatch runs: bondd's reload and trial work
 * must not run inside it (status_split_answer_asks runs it after). */
static bool in_dispatch;

static void dispatch_turn(struct status_split *s)
{
	in_dispatch = true;
	status_split_dispatch(s);
	in_dispatch = false;
}

struct fixture {
	char dir[64], path[96];
	struct desired want;
	struct observed obs;
	struct event_log events;
	struct status_split *s;
};

static struct fixture *fx;
/* bondd's state changes on every turn of the loop (a link flapping). */
static bool churn;

static void view(void *ctx, struct status_view *out)
{
	struct fixture *f = ctx;
	*out = (struct status_view){.want = &f->want, .obs = &f->obs, .events = &f->events};
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/bondd-split-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/sock", f->dir);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	assert_int_equal(status_split_open(&f->s, f->path, view, f), 0);
	fx = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	status_split_close(f->s);
	/* the snapshots end when the status process closes their sockets */
	while (waitpid(-1, NULL, 0) > 0)
		;
	rmdir(f->dir);
	free(f);
	return 0;
}

static int connect_to(const struct fixture *f)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* bondd's loop, for the split alone, until fd can be read (or ~5 s). */
static void run_until_readable(struct fixture *f, int fd)
{
	for (int i = 0; i < 1000; i++) {
		struct pollfd p[2] = {{.fd = status_split_fd(f->s), .events = POLLIN},
				      {.fd = fd, .events = POLLIN}};
		if (churn) {
			/* a busy daemon: a turn for the kernel's event, a flush */
			status_split_changed(f->s);
			status_split_flush(f->s);
		}
		poll(p, 2, 5);
		if (p[0].revents) {
			dispatch_turn(f->s);
			status_split_answer_asks(f->s); /* the end of the loop's turn */
		} else
			status_split_flush(f->s); /* as the daemon's loop does */
		status_split_reap(f->s);
		if (p[1].revents)
			return;
	}
	fail_msg("no reply within 5 s");
}

static size_t ask(struct fixture *f, const char *req, char *buf, size_t len)
{
	int fd = connect_to(f);
	size_t got = 0;
	assert_int_equal(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
	shutdown(fd, SHUT_WR);
	for (;;) {
		run_until_readable(f, fd);
		ssize_t n = recv(fd, buf + got, len - 1 - got, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			break;
		if (n < 0)
			continue;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fd);
	return got;
}

/* Replies come, and the process that served them holds nothing. */
static void replies_from_an_unprivileged_child(void **state)
{
	struct fixture *f = *state;
	char buf[8192], path[64], text[4096];

	ask(f, "brief\n", buf, sizeof(buf));
	assert_true(strncmp(buf, "bondd/1 ok 0 ", 13) == 0);
	ask(f, "json\n", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"bonds\""));
	ask(f, "proc nosuch\n", buf, sizeof(buf));
	assert_true(strncmp(buf, "bondd/1 error 404 ", 18) == 0);
	pid_t pid = status_split_pid(f->s);
	assert_true(pid > 0 && pid != getpid());
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *st = fopen(path, "r");
	assert_non_null(st);
	size_t n = fread(text, 1, sizeof(text) - 1, st);
	fclose(st);
	text[n] = '\0';
	assert_non_null(strstr(text, "\nCapEff:\t0000000000000000\n"));
	assert_non_null(strstr(text, "\nCapPrm:\t0000000000000000\n"));
	assert_non_null(strstr(text, "\nNoNewPrivs:\t1\n"));
}

/* Requests without end while nothing changes: bondd's side makes one
 * snapshot, then answers "the last holds". */
static void flood_costs_one_snapshot(void **state)
{
	struct fixture *f = *state;
	char buf[4096];
	int64_t t0 = (int64_t)clock_mono_ms();
	unsigned n = 0;

	while ((int64_t)clock_mono_ms() - t0 < 500 && n < 200) {
		ask(f, "health\n", buf, sizeof(buf));
		assert_true(strncmp(buf, "bondd/1 ok 0 0\n", 15) == 0);
		n++;
	}
	assert_true(n >= 10);
	/* every snapshot ever made is a child; count those alive now plus
	 * the status process: nothing piles up */
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "cat /proc/%d/task/*/children", (int)getpid());
	FILE *p = popen(cmd, "r");
	unsigned kids = 0;
	int pid;
	while (p && fscanf(p, "%d", &pid) == 1)
		kids++;
	if (p)
		pclose(p);
	assert_true(kids <= 3); /* the status process, the snapshot, one ending */
}

/* While bondd's state never stops changing, every request is still
 * answered, from a new snapshot at most every SNAP_FORK_GAP_MS (the timer
 * makes the one that falls due: it was once left disarmed, and replies
 * waited for ever). */
static void changing_state_still_answered(void **state)
{
	struct fixture *f = *state;
	char buf[4096];

	churn = true;
	for (int i = 0; i < 8; i++) {
		int64_t t0 = (int64_t)clock_mono_ms();
		ask(f, "brief\n", buf, sizeof(buf));
		assert_true(strncmp(buf, "bondd/1 ok 0 ", 13) == 0);
		assert_true((int64_t)clock_mono_ms() - t0 < 2000);
		poll(NULL, 0, 30);
	}
	churn = false;
}

/* An event reaches a watcher through the status process. */
static void events_reach_watchers(void **state)
{
	struct fixture *f = *state;
	char buf[4096];
	int fd = connect_to(f);
	size_t got = 0;

	assert_int_equal(send(fd, "watch\n", 6, 0), 6);
	run_until_readable(f, fd);
	got += (size_t)recv(fd, buf, sizeof(buf) - 1, 0);
	struct event e = {.wall_ms = 1, .kind = EV_REPAIR};
	snprintf(e.bond, sizeof(e.bond), "bond7");
	snprintf(e.text, sizeof(e.text), "put e2 back");
	status_split_broadcast(f->s, &e);
	status_split_flush(f->s);
	while (!memmem(buf, got, "put e2 back", 11)) {
		run_until_readable(f, fd);
		ssize_t n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
		assert_true(n > 0);
		got += (size_t)n;
	}
	close(fd);
}

/* The status process killed: a new one serves the socket. */
static void status_process_started_again(void **state)
{
	struct fixture *f = *state;
	char buf[4096];
	pid_t old = status_split_pid(f->s);

	assert_int_equal(kill(old, SIGKILL), 0);
	for (int i = 0; i < 400 && (status_split_pid(f->s) == old || !status_split_pid(f->s)); i++) {
		poll(NULL, 0, 5);
		status_split_reap(f->s);
		dispatch_turn(f->s);
		status_split_answer_asks(f->s);
	}
	assert_true(status_split_pid(f->s) != old && status_split_pid(f->s) > 0);
	ask(f, "health\n", buf, sizeof(buf));
	assert_true(strncmp(buf, "bondd/1 ok 0 0\n", 15) == 0);
}


/* --- what an unprivileged user's requests cost bondd's side ------------- */

static unsigned checks_asked, reloads_done;

static int count_check(void *ctx, const struct status_request *req, bool start)
{
	(void)ctx;
	(void)req;
	checks_asked += start;
	return 0; /* no bond has link_check: nothing starts */
}

static int count_reload(void *ctx, char *msg, size_t len)
{
	(void)ctx;
	assert_false(in_dispatch);
	snprintf(msg, len, "reloaded");
	reloads_done++;
	return 0;
}

/* Children of this process now, other than skip1 and skip2, added to seen
 * (up to 64); returns how many seen holds. */
static size_t note_children(pid_t *seen, size_t n, pid_t skip1, pid_t skip2)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
	FILE *fp = fopen(path, "r");
	int pid;
	while (fp && fscanf(fp, "%d", &pid) == 1) {
		bool known = pid == skip1 || pid == skip2;
		for (size_t i = 0; i < n && !known; i++)
			known = seen[i] == pid;
		if (!known && n < 64)
			seen[n++] = pid;
	}
	if (fp)
		fclose(fp);
	return n;
}

/* As nobody (uid 65534): `count` times req (its lines sent together) on
 * one connection, each time the replies read; the replies' status words tallied in got[0] (ok), got[1] (403),
 * got[2] (503), got[3] (other).  bondd's side is driven meanwhile; the
 * snapshots it forked are counted in *forks.  Skipped when not root. */
static void nobody_asks(struct fixture *f, const char *req, int count, unsigned got[4],
			size_t *forks)
{
	int pfd[2];
	pid_t seen[64];
	size_t n_seen = 0;

	if (geteuid() != 0)
		skip();
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_int_equal(pipe(pfd), 0);
	pid_t kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		unsigned t[4] = {0};
		char buf[8192];
		close(pfd[0]);
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			_exit(1);
		FILE *in = fdopen(fd, "r");
		int lines = 0;
		for (const char *q = req; *q; q++)
			lines += *q == '\n';
		for (int i = 0; i < count * lines; i++) {
			if (i % lines == 0 && send(fd, req, strlen(req), MSG_NOSIGNAL) < 0)
				break;
			/* the header, then the body up to its end (the
			 * header's last number is the body's length) */
			unsigned code, a, len;
			char word[16];
			if (!fgets(buf, sizeof(buf), in))
				break;
			if (sscanf(buf, "bondd/1 ok %u %u", &a, &len) == 2) {
				t[0]++;
				for (unsigned k = 0; k < len; k++)
					(void)fgetc(in);
			} else if (sscanf(buf, "bondd/1 %15s %u", word, &code) == 2) {
				t[code == 403 ? 1 : code == 503 ? 2 : 3]++;
			} else {
				t[3]++;
			}
		}
		(void)!write(pfd[1], t, sizeof(t));
		_exit(0);
	}
	close(pfd[1]);
	memset(got, 0, 4 * sizeof(unsigned));
	for (int i = 0; i < 4000; i++) {
		struct pollfd p[2] = {{.fd = status_split_fd(f->s), .events = POLLIN},
				      {.fd = pfd[0], .events = POLLIN}};
		poll(p, 2, 5);
		if (p[0].revents) {
			dispatch_turn(f->s);
			status_split_answer_asks(f->s); /* the end of the loop's turn */
		} else
			status_split_flush(f->s);
		n_seen = note_children(seen, n_seen, status_split_pid(f->s), kid);
		status_split_reap(f->s);
		if (p[1].revents) {
			if (read(pfd[0], got, 4 * sizeof(unsigned)) != (ssize_t)(4 * sizeof(unsigned)))
				got[3] = ~0u; /* the client died */
			break;
		}
	}
	close(pfd[0]);
	kill(kid, SIGKILL); /* one that never got its replies (20 s) */
	waitpid(kid, NULL, 0);
	*forks = n_seen;
}

/* A flood of reloads from a user who may not reload: refused, and none
 * reaches bondd's reload or makes it fork a snapshot (each refused one
 * once counted as a change: a fork every 200 ms). */
static void refused_reloads_cost_nothing(void **state)
{
	struct fixture *f = *state;
	unsigned got[4];
	size_t forks;

	reloads_done = 0;
	status_split_set_reload(f->s, count_reload);
	nobody_asks(f, "health\n", 1, got, &forks); /* the first snapshot */
	assert_int_equal(got[0], 1);
	nobody_asks(f, "reload\nhealth\n", 150, got, &forks);
	assert_int_equal(got[1], 150);
	assert_int_equal(got[0], 150);
	assert_int_equal(reloads_done, 0);
	assert_true(forks <= 1);
}

/* A reload on trial through the split: try and confirm answered by bondd's
 * callback at once (the seconds reach it); trial-wait held until that
 * trial ends, then answered 410 when it was put back; a client waiting for
 * another trial is not answered by this one's end. */
static uint32_t trial_seconds;
static int fake_trial(void *ctx, enum status_verb verb, uint32_t arg, char *msg, size_t len)
{
	(void)ctx;
	assert_false(in_dispatch); /* answered at the end of the turn */
	if (verb == SV_TRY) {
		trial_seconds = arg;
		snprintf(msg, len, "trial 1: applied");
		return 0;
	}
	if (verb == SV_CONFIRM) {
		snprintf(msg, len, "no trial runs: nothing to confirm");
		return SE_CONFLICT;
	}
	return STATUS_TRIAL_PENDING; /* trial-wait: every trial runs */
}

static void turns(struct fixture *f, int n)
{
	for (int i = 0; i < n; i++) {
		struct pollfd p = {.fd = status_split_fd(f->s), .events = POLLIN};
		poll(&p, 1, 5);
		if (p.revents) {
			dispatch_turn(f->s);
			status_split_answer_asks(f->s); /* the end of the loop's turn */
		} else
			status_split_flush(f->s);
	}
}

/* bondd's loop without the end of its turns: the asks stay with bondd. */
static void turns_without_end(struct fixture *f, int n)
{
	for (int i = 0; i < n; i++) {
		struct pollfd p = {.fd = status_split_fd(f->s), .events = POLLIN};
		poll(&p, 1, 5);
		if (p.revents)
			dispatch_turn(f->s);
		else
			status_split_flush(f->s);
	}
}

static void trial_through_the_split(void **state)
{
	struct fixture *f = *state;
	char buf[4096];

	if (geteuid() != 0)
		skip(); /* the requests need root, as a reload's */
	status_split_set_trial(f->s, fake_trial);
	ask(f, "try 42\n", buf, sizeof(buf));
	assert_int_equal(trial_seconds, 42);
	assert_non_null(strstr(buf, "bondd/1 ok "));
	assert_non_null(strstr(buf, "\ntrial 1: applied\n"));
	ask(f, "confirm\n", buf, sizeof(buf));
	assert_string_equal(buf, "bondd/1 error 409 no trial runs: nothing to confirm\n");
	/* a reload too: done after the dispatch that took it, then answered */
	reloads_done = 0;
	status_split_set_reload(f->s, count_reload);
	ask(f, "reload\n", buf, sizeof(buf));
	assert_int_equal(reloads_done, 1);
	assert_non_null(strstr(buf, "\nreloaded\n"));

	int one = connect_to(f), two = connect_to(f);
	assert_int_equal(send(one, "trial-wait 1\n", 13, 0), 13);
	assert_int_equal(send(two, "trial-wait 2\n", 13, 0), 13);
	turns(f, 100); /* both reach bondd and wait */
	assert_int_equal(recv(one, buf, sizeof(buf), MSG_DONTWAIT), -1);
	status_split_trial_ended(f->s, 1, SE_ROLLED_BACK, "trial 1 rolled back: bond0 is down");
	run_until_readable(f, one);
	ssize_t n = recv(one, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "bondd/1 error 410 trial 1 rolled back: bond0 is down\n");
	turns(f, 20);
	assert_int_equal(recv(two, buf, sizeof(buf), MSG_DONTWAIT), -1); /* still waiting */
	close(one);
	close(two);
}

/* settle, from any user: bondd holds it to the end of its turn (where the
 * loop handles what the kernel queued: status_split_settle_pending says so)
 * and only then does the client get its answer, the bonds' health. */
static void settle_waits_for_the_turn(void **state)
{
	struct fixture *f = *state;
	char buf[4096];
	int fd = connect_to(f);

	assert_int_equal(send(fd, "settle\n", 7, 0), 7);
	for (int i = 0; i < 1000 && !status_split_settle_pending(f->s); i++) {
		struct pollfd p = {.fd = status_split_fd(f->s), .events = POLLIN};
		poll(&p, 1, 5);
		if (p.revents)
			dispatch_turn(f->s); /* no end of turn: asks stay */
	}
	assert_true(status_split_settle_pending(f->s));
	turns_without_end(f, 20);
	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1); /* not yet */
	assert_true(status_split_settle_pending(f->s));
	status_split_answer_asks(f->s); /* the end of the loop's turn */
	assert_false(status_split_settle_pending(f->s));
	run_until_readable(f, fd);
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "bondd/1 ok "));
	assert_int_equal(buf[n - 3], ' ');
	assert_string_equal(buf + n - 2, "0\n"); /* health only: no body */
	close(fd);
	ask(f, "settle bond0\n", buf, sizeof(buf));
	assert_string_equal(buf, "bondd/1 error 400 \"settle\" takes no arguments\n");
}

/* A user asking for link checks without end: a few reach bondd, the rest
 * are refused busy in the status process; nothing is forked for them. */
static void link_check_flood_bounded(void **state)
{
	struct fixture *f = *state;
	unsigned got[4];
	size_t forks;

	checks_asked = 0;
	status_split_set_check(f->s, count_check);
	nobody_asks(f, "health\n", 1, got, &forks);
	nobody_asks(f, "linkcheck\n", 100, got, &forks);
	assert_int_equal(got[0] + got[2], 100);
	assert_true(got[2] >= 80);
	assert_true(checks_asked >= 10 && checks_asked <= 20);
	assert_true(forks <= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pacing_cases),
		cmocka_unit_test(pacing_bounds_forks),
		cmocka_unit_test(bucket_cases),
		cmocka_unit_test(bucket_bounds_a_second),
		cmocka_unit_test(frame_cases),
		cmocka_unit_test(ask_judge_cases),
		cmocka_unit_test(writer_reader_pass_fds),
		cmocka_unit_test(confined_snapshot_cannot_use_capabilities),
		cmocka_unit_test_setup_teardown(replies_from_an_unprivileged_child, setup, teardown),
		cmocka_unit_test_setup_teardown(flood_costs_one_snapshot, setup, teardown),
		cmocka_unit_test_setup_teardown(changing_state_still_answered, setup, teardown),
		cmocka_unit_test_setup_teardown(events_reach_watchers, setup, teardown),
		cmocka_unit_test_setup_teardown(status_process_started_again, setup, teardown),
		cmocka_unit_test_setup_teardown(refused_reloads_cost_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(trial_through_the_split, setup, teardown),
		cmocka_unit_test_setup_teardown(link_check_flood_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(settle_waits_for_the_turn, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
