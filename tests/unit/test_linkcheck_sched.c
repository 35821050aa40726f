/* SPDX-License-Identifier: MIT */
/*
 * The link check's scheduler and frame handlers (linkcheck_sched.c,
 * linkcheck_bonds.c, linkcheck_io.c) on a bond whose slaves are down: no
 * packet socket is opened (its slaves are not ready, linkcheck_sync), so
 * nothing reaches a network; frames are handed to lc_frame_in as the
 * sockets would.  Time is the real monotonic clock: where a check's
 * deadline must have passed, the test moves the deadline back instead of
 * sleeping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/timerfd.h>

#include "linkcheck_parts.h"

static int done_calls;
static char done_bond[IFNAMSIZ + 1];

static void on_done(void *ctx, const char *bond)
{
	(void)ctx;
	done_calls++;
	snprintf(done_bond, sizeof(done_bond), "%s", bond ? bond : "(all)");
}

struct rig {
	struct linkcheck *lc;
	struct findings fs;
	struct desired want;
	struct desired_bond d;
	struct observed obs;
};

static struct lc_bond *rig_open(struct rig *r, bool link_check)
{
	memset(r, 0, sizeof(*r));
	done_calls = 0;
	assert_int_equal(linkcheck_open(&r->lc, &r->fs, on_done, NULL), 0);
	snprintf(r->d.name, IFNAMSIZ, "bond0");
	r->d.n_slaves = 2;
	snprintf(r->d.slaves[0].name, IFNAMSIZ, "e1");
	snprintf(r->d.slaves[1].name, IFNAMSIZ, "e2");
	r->d.mtu = 1500;
	r->d.opts.val[OPT_MODE] = MODE_ACTIVE_BACKUP;
	r->d.link_check = link_check;
	r->want.bonds = &r->d;
	r->want.n_bonds = 1;
	/* (nothing observed: the slaves are not ready, no socket opens) */
	linkcheck_sync(r->lc, &r->want, &r->obs);
	assert_int_equal(r->lc->n_bonds, 1);
	return r->lc->bonds[0];
}

static void rig_close(struct rig *r)
{
	linkcheck_close(r->lc);
	findings_free(&r->fs);
}

/* The running check's deadline passed (instead of a sleep). */
static void deadline_passed(struct lc_bond *b)
{
	b->ph.deadline_ms = b->ph.started_ms;
}

static struct lc_frame frame(struct linkcheck *lc, enum lc_type type, char host, const char *slave,
			     uint32_t probe_id)
{
	struct lc_frame f = {.type = type, .size = LC_SMALL, .probe_id = probe_id,
			     .length = LC_HEADER_LEN};
	memset(f.from.host, host, LC_HOST_ID_LEN);
	snprintf(f.from.bond, IFNAMSIZ, "bond9");
	snprintf(f.from.slave, IFNAMSIZ, "%s", slave);
	f.from.pos = 1;
	if (type == LC_ANSWER) {
		memcpy(f.to.host, lc->host, LC_HOST_ID_LEN);
		snprintf(f.to.bond, IFNAMSIZ, "bond0");
		snprintf(f.to.slave, IFNAMSIZ, "e1");
	}
	return f;
}

static void off_bond_is_off(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, false);
	assert_int_equal(b->ph.phase, LC_PHASE_OFF);
	assert_false(linkcheck_demand(r.lc, "bond0"));
	assert_false(linkcheck_demand(r.lc, "bond7"));
	assert_false(linkcheck_busy(r.lc, "bond0"));
	assert_int_equal(linkcheck_results(r.lc)->n, 1);
	rig_close(&r);
}

static void demand_runs_one_check(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, true);
	assert_int_equal(b->ph.phase, LC_PHASE_IDLE);
	assert_true(linkcheck_demand(r.lc, "bond0"));
	/* no check before: it starts at once */
	assert_int_equal(b->ph.phase, LC_PHASE_RUNNING);
	assert_true(b->result.running);
	assert_true(linkcheck_busy(r.lc, "bond0"));
	assert_string_equal(b->result.trigger, "asked");
	/* before its deadline nothing ends it (nobody to wait for) */
	lc_process_due(r.lc);
	assert_int_equal(b->ph.phase, LC_PHASE_RUNNING);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->ph.phase, LC_PHASE_IDLE);
	assert_int_equal(b->result.checks, 1);
	assert_int_equal(done_calls, 1);
	assert_string_equal(done_bond, "bond0");
	/* clean: the client's answer, nothing more to come */
	assert_false(linkcheck_busy(r.lc, "bond0"));
	assert_false(b->result.settling);
	/* it sent nothing (no slave ready): no retry either */
	assert_int_equal(b->ph.alone_at_ms, 0);
	assert_int_equal(b->result.retry_ms, 0);
	rig_close(&r);
}

/* The link_check object of bond0's result has "retry_in_ms":want. */
static void json_retry_is(const struct lc_bond *b, uint32_t want)
{
	struct strbuf out = {0};
	char key[48];
	linkcheck_json(&out, &b->result);
	assert_false(out.oom);
	snprintf(key, sizeof(key), "\"retry_in_ms\":%u,", want);
	if (!strstr(out.s, key))
		fail_msg("no %s in %s", key, out.s);
	sb_free(&out);
}

/* As the check's socket would have sent e1's small request. */
static void e1_probed(struct lc_bond *b)
{
	b->live[0].sent = LC_SIZE_BIT(LC_SMALL);
	b->live[0].sizes[LC_SMALL] = LC_HEADER_LEN;
	b->live[0].probed = true;
	b->result.frames_sent = 1;
}

/* A check that sent requests and heard no answer on any slave is tried
 * again on the backoff (lc_phase_checked), with no finding and no
 * settling; the retry takes a peers' token and says so as its trigger;
 * a late answer to that check, or a retry that hears a peer, ends the
 * retries. */
static void no_peer_is_retried(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, true);
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 0xa};
	assert_true(linkcheck_demand(r.lc, "bond0"));
	e1_probed(b);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->result.checks, 1);
	assert_int_equal(b->ph.alone_ms, LC_ALONE_FIRST_MS);
	assert_in_range(b->result.retry_ms, LC_ALONE_FIRST_MS,
			LC_ALONE_FIRST_MS + LC_PEER_JITTER_MS);
	json_retry_is(b, b->result.retry_ms);
	/* no finding, not settling: silence is no verdict */
	assert_int_equal(r.fs.n, 0);
	assert_int_equal(b->found.n, 0);
	assert_false(b->result.settling);

	/* its time comes (moved back instead of slept): the retry starts,
	 * asking the peers to probe back, with a peers' token */
	unsigned tokens = b->peer_tokens;
	b->ph.alone_at_ms = mono_ms() - 1;
	b->ph.last_start_ms -= 20000;
	lc_process_due(r.lc);
	assert_true(lc_phase_running(&b->ph));
	assert_string_equal(b->result.trigger, "no peer yet");
	assert_true(b->run.probe_back);
	assert_false(b->run.fresh);
	assert_int_equal(b->peer_tokens, tokens - 1);
	assert_int_equal(b->ph.alone_at_ms, 0);
	/* it hears no one either: twice the wait */
	e1_probed(b);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->ph.alone_ms, 2 * LC_ALONE_FIRST_MS);
	assert_in_range(b->result.retry_ms, 2 * LC_ALONE_FIRST_MS,
			2 * LC_ALONE_FIRST_MS + LC_PEER_JITTER_MS);
	/* the next retry hears a's p1: the retries end, the bond is quiet */
	b->ph.alone_at_ms = mono_ms() - 1;
	b->ph.last_start_ms -= 20000;
	lc_process_due(r.lc);
	assert_true(lc_phase_running(&b->ph));
	e1_probed(b);
	struct lc_frame f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id);
	lc_frame_in(r.lc, &b->socks[0], &f, mac);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->ph.alone_ms, 0);
	assert_int_equal(b->ph.alone_at_ms, 0);
	assert_int_equal(b->result.retry_ms, 0);
	assert_false(b->result.settling);
	json_retry_is(b, 0);
	/* a change later (a slave ready: fresh) that hears no one, p1
	 * expected: settling by the findings' rules (a re-check soon, which
	 * takes the retry's place), and the retry's waits from the first */
	b->ph.last_start_ms -= 20000;
	lc_trigger(b, "e1 ready", false, false, true);
	lc_process_due(r.lc);
	assert_true(lc_phase_running(&b->ph));
	e1_probed(b);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->result.missing, 1);
	assert_true(b->result.settling);
	assert_false(lc_settle_quiet(&b->settle));
	assert_int_equal(b->ph.alone_ms, LC_ALONE_FIRST_MS);
	assert_int_not_equal(b->ph.alone_at_ms, 0);
	/* link checking turned off: nothing left */
	r.d.link_check = false;
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_int_equal(b->ph.alone_ms, 0);
	assert_int_equal(b->ph.alone_at_ms, 0);
	assert_int_equal(b->result.retry_ms, 0);
	rig_close(&r);

	/* a late answer to a check that heard no one: a peer heard after
	 * all, no retry */
	b = rig_open(&r, true);
	assert_true(linkcheck_demand(r.lc, "bond0"));
	e1_probed(b);
	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_not_equal(b->ph.alone_at_ms, 0);
	f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id);
	lc_frame_in(r.lc, &b->socks[0], &f, mac);
	assert_true(b->reeval);
	lc_process_due(r.lc);
	assert_int_equal(b->ph.alone_at_ms, 0);
	assert_int_equal(b->ph.alone_ms, 0);
	json_retry_is(b, 0);
	rig_close(&r);
}

/* The node's budget on the real scheduler: 12 bonds that heard no peer,
 * all due: lc_process_due starts LC_RETRY_NODE_BURST retries, the bond due
 * longest first, and arms its one timer for the node's next token, not for
 * the two bonds left; each bond's retry_in_ms says its turn; a change of a
 * waiting bond checks it at once, the node's bucket empty. */
#define NODE_BONDS 12
static void node_budget_on_the_scheduler(void **state)
{
	(void)state;
	static struct desired_bond ds[NODE_BONDS];
	struct linkcheck *lc;
	struct findings fs = {0};
	struct desired want = {.bonds = ds, .n_bonds = NODE_BONDS};
	struct observed obs = {0};
	memset(ds, 0, sizeof(ds));
	assert_int_equal(linkcheck_open(&lc, &fs, on_done, NULL), 0);
	for (size_t i = 0; i < NODE_BONDS; i++) {
		snprintf(ds[i].name, IFNAMSIZ, "bond%zu", i);
		ds[i].n_slaves = 1;
		snprintf(ds[i].slaves[0].name, IFNAMSIZ, "d%zu", i);
		ds[i].mtu = 1500;
		ds[i].opts.val[OPT_MODE] = MODE_ACTIVE_BACKUP;
		ds[i].link_check = true;
	}
	linkcheck_sync(lc, &want, &obs);
	assert_int_equal(lc->n_bonds, NODE_BONDS);
	/* each bond's first check hears no one */
	for (size_t i = 0; i < NODE_BONDS; i++) {
		struct lc_bond *b = lc->bonds[i];
		assert_true(linkcheck_demand(lc, b->name));
		e1_probed(b);
		deadline_passed(b);
	}
	lc_process_due(lc);
	/* the first 10 (fewer bonds ahead of each than the node's burst):
	 * retry_in_ms is their own time; the last two may wait for a turn */
	for (size_t i = 0; i < NODE_BONDS; i++) {
		struct lc_bond *b = lc->bonds[i];
		assert_int_equal(b->result.checks, 1);
		assert_int_not_equal(b->ph.alone_at_ms, 0);
		assert_true(b->result.retry_ms >= LC_ALONE_FIRST_MS);
		if (i < LC_RETRY_NODE_BURST)
			assert_true(b->result.retry_ms <= LC_ALONE_FIRST_MS + 2 * LC_PEER_JITTER_MS);
	}
	/* all due; bond 5 the longest (its time furthest back) */
	int64_t now = mono_ms();
	for (size_t i = 0; i < NODE_BONDS; i++) {
		lc->bonds[i]->ph.alone_at_ms = now - 100 - (i == 5 ? 5000 : 0);
		lc->bonds[i]->ph.last_start_ms -= 20000;
	}
	lc_process_due(lc);
	size_t running = 0;
	for (size_t i = 0; i < NODE_BONDS; i++)
		running += lc_phase_running(&lc->bonds[i]->ph);
	assert_int_equal(running, LC_RETRY_NODE_BURST);
	assert_true(lc_phase_running(&lc->bonds[5]->ph));
	assert_int_equal(lc->retry_node.tokens, 0);
	/* the retries' ends and the node's next token: the timer is armed
	 * for the nearest, a check's end (within LC_WAIT_MS), never for the
	 * two bonds left */
	struct itimerspec its;
	assert_int_equal(timerfd_gettime(lc->timer_fd, &its), 0);
	assert_true(its.it_value.tv_sec || its.it_value.tv_nsec);
	assert_true(its.it_value.tv_sec <= LC_WAIT_MS / 1000);
	/* the checks end (heard no one): their next retries later; the two
	 * left wait for the node's next token, and the timer with them */
	for (size_t i = 0; i < NODE_BONDS; i++)
		if (lc_phase_running(&lc->bonds[i]->ph)) {
			e1_probed(lc->bonds[i]);
			deadline_passed(lc->bonds[i]);
		}
	lc_process_due(lc);
	running = 0;
	for (size_t i = 0; i < NODE_BONDS; i++)
		running += lc_phase_running(&lc->bonds[i]->ph);
	assert_int_equal(running, 0);
	assert_int_equal(timerfd_gettime(lc->timer_fd, &its), 0);
	int64_t in_ms = its.it_value.tv_sec * 1000 + its.it_value.tv_nsec / 1000000;
	assert_in_range(in_ms, LC_RETRY_NODE_GAP_MS - 1000, LC_RETRY_NODE_GAP_MS);
	/* a bond that retried now waits behind the two left */
	size_t waiting = NODE_BONDS;
	for (size_t i = 0; i < NODE_BONDS; i++)
		if (lc->bonds[i]->result.checks == 1)
			waiting = i;
	assert_int_not_equal(waiting, NODE_BONDS);
	/* a change of a waiting bond: checked at once, the bucket empty */
	lc->bonds[waiting]->ph.last_start_ms -= 20000;
	lc_trigger(lc->bonds[waiting], "d ready", false, false, true);
	lc_process_due(lc);
	assert_true(lc_phase_running(&lc->bonds[waiting]->ph));
	assert_string_equal(lc->bonds[waiting]->result.trigger, "d ready");
	assert_int_equal(lc->retry_node.tokens, 0);
	linkcheck_close(lc);
	findings_free(&fs);
}

static void trigger_while_running_is_next(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, true);
	assert_true(linkcheck_demand(r.lc, "bond0"));
	/* asked again while it runs: the next check is due after it */
	assert_true(linkcheck_demand(r.lc, "bond0"));
	assert_true(b->ph.again);
	deadline_passed(b);
	lc_process_due(r.lc);
	/* not within LC_MIN_GAP_MS of the first's start */
	assert_int_equal(b->ph.phase, LC_PHASE_DUE);
	assert_true(linkcheck_busy(r.lc, "bond0"));
	/* a reload's pass (the bond reshaped: a second slave less) ends what
	 * waits for the bond's old shape */
	r.d.n_slaves = 1;
	linkcheck_reloaded(r.lc);
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_true(lc_phase_due(&b->ph));
	/* checks turned off: the client is told, nothing is due */
	r.d.link_check = false;
	done_calls = 0;
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_int_equal(b->ph.phase, LC_PHASE_OFF);
	assert_int_equal(done_calls, 1);
	assert_string_equal(done_bond, "(all)");
	rig_close(&r);
}

static void answers_and_requests(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, true);
	assert_true(linkcheck_demand(r.lc, "bond0"));
	/* (its socket is closed: the test says what it sent) */
	b->live[0].sent = LC_SIZE_BIT(LC_SMALL);
	b->live[0].sizes[LC_SMALL] = LC_HEADER_LEN;
	b->live[0].probed = true;
	b->result.requests_total = 1;
	struct lc_sock *s = &b->socks[0];
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 0xa};

	/* an answer from a's p1 */
	struct lc_frame f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id);
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->live[0].n_peers, 1);
	assert_int_equal(b->live[0].peers[0].answered, LC_SIZE_BIT(LC_SMALL));
	assert_true(lc_known_host(r.lc, f.from.host, mono_ms()));
	/* one of another length proves nothing */
	f.length = 99;
	unsigned bad = b->result.bad_frames;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->result.bad_frames, bad + 1);
	/* one to another host, or to a probe of nobody's: not ours */
	f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id);
	f.to.host[0] ^= 1;
	lc_frame_in(r.lc, s, &f, mac);
	f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id + 1000);
	unsigned late = b->result.late_answers;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->result.late_answers, late + 1);
	/* our own request on e2: e1 and e2 share a domain */
	f = frame(r.lc, LC_REQUEST, 0, "e1", b->probe_id);
	memcpy(f.from.host, r.lc->host, LC_HOST_ID_LEN);
	snprintf(f.from.bond, IFNAMSIZ, "bond0");
	lc_frame_in(r.lc, &b->socks[1], &f, mac);
	assert_int_equal(b->live[1].siblings, 1u);
	/* a request with our id that no check of ours sent: a twin */
	f.probe_id = b->probe_id + 7;
	bad = b->result.bad_frames;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->result.bad_frames, bad + 1);
	assert_true(r.lc->twin_logged);

	deadline_passed(b);
	lc_process_due(r.lc);
	assert_int_equal(b->result.checks, 1);
	assert_int_equal(b->shown[0].peers[0].answered, LC_SIZE_BIT(LC_SMALL));

	/* a's request asking to be probed back: answered, no news (it
	 * answered e1), no wish */
	f = frame(r.lc, LC_REQUEST, 'a', "p1", 77);
	f.flags = LC_FLAG_PROBE_BACK;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->wish[0].since_ms, 0);
	assert_int_equal(b->wish[1].since_ms, 0);
	/* a stranger's: news, a wish owed a check from the strangers' bucket */
	f = frame(r.lc, LC_REQUEST, 'z', "q1", 78);
	f.flags = LC_FLAG_PROBE_BACK;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_not_equal(b->wish[1].since_ms, 0);
	assert_true(b->result.settling);
	assert_string_equal(b->wish_why, "probe from 7a7a7a7a's q1");
	/* an echo for a check that is over proves nothing */
	f = frame(r.lc, LC_REQUEST, 'a', "p1", b->probe_id);
	f.flags = LC_FLAG_ECHO;
	uint8_t heard = b->live[0].peers[0].heard;
	lc_frame_in(r.lc, s, &f, mac);
	assert_int_equal(b->live[0].peers[0].heard, heard);

	/* a late answer to the last check counts for it: evaluated again */
	b->shown[0].sent |= LC_SIZE_BIT(LC_STANDARD);
	b->shown[0].sizes[LC_STANDARD] = LC_STANDARD_LEN;
	f = frame(r.lc, LC_ANSWER, 'a', "p1", b->probe_id);
	f.size = LC_STANDARD;
	f.length = LC_STANDARD_LEN;
	lc_frame_in(r.lc, s, &f, mac);
	assert_true(b->reeval);
	lc_process_due(r.lc);
	assert_false(b->reeval);

	/* time passes (moved back instead of slept): the stranger's wish's
	 * check starts, named after it, from the strangers' bucket */
	unsigned tokens = b->stranger_tokens;
	b->wish[1].since_ms -= 20000;
	b->ph.last_start_ms -= 20000;
	lc_process_due(r.lc);
	assert_true(lc_phase_running(&b->ph));
	assert_string_equal(b->result.trigger, "probe from 7a7a7a7a's q1");
	assert_int_equal(b->wish[1].since_ms, 0);
	assert_int_equal(b->stranger_tokens, tokens - 1);
	/* its end; a re-check due at once is triggered, and waits for the
	 * gap after this check's start */
	deadline_passed(b);
	lc_process_due(r.lc);
	b->settle.next_ms = mono_ms() - 1;
	lc_process_due(r.lc);
	assert_int_equal(b->ph.phase, LC_PHASE_DUE);
	assert_string_equal(b->ask.trigger, "re-check");
	rig_close(&r);
}

/* A bond's per-slave arrays have room for its slaves alone (bond_shape):
 * a renamed slave (an entry that follows it by ifindex) keeps its socket
 * and the array it is in; a slave more makes new arrays for three, made
 * before the old ones go (another address), each socket pointing back at
 * its bond and index; one fewer, arrays for one.  Under ASan a row or
 * socket read past n is an error. */
static void shape_sizes_the_slaves(void **state)
{
	(void)state;
	struct rig r;
	struct lc_bond *b = rig_open(&r, true);
	struct lc_sock *old = b->socks;
	/* (e1 as if it had a socket on ifindex 7: a shared socket's user,
	 * whose close closes no descriptor) */
	b->socks[0].sock = (struct packet_sock){.fd = 1000, .ifindex = 7};
	snprintf(r.d.slaves[0].name, IFNAMSIZ, "e1new");
	r.d.slaves[0].ifindex = 7;
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_ptr_equal(r.lc->bonds[0], b);
	assert_ptr_equal(b->socks, old);
	assert_int_equal(b->n, 2);
	assert_string_equal(b->slaves[0], "e1new");
	assert_string_equal(b->slaves[1], "e2");

	r.d.n_slaves = 3;
	snprintf(r.d.slaves[2].name, IFNAMSIZ, "e3");
	snprintf(r.d.slaves[2].sel.text, sizeof(r.d.slaves[2].sel.text), "mac:02:00:00:00:00:03");
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_int_equal(b->n, 3);
	assert_ptr_not_equal(b->socks, old);
	for (size_t i = 0; i < 3; i++) {
		assert_ptr_equal(b->socks[i].bond, b);
		assert_int_equal(b->socks[i].idx, i);
		assert_int_equal(b->socks[i].sock.fd, -1);
		assert_string_equal(b->slaves[i], r.d.slaves[i].name);
		assert_int_equal(b->missing_on[i], 0);
		assert_false(b->flooded_on[i]);
		assert_int_equal(b->live[i].n_peers, 0);
	}
	assert_string_equal(b->sel[0], "");
	assert_string_equal(b->sel[2], "mac:02:00:00:00:00:03");
	/* a check over the three: every per-slave array is read to n */
	assert_true(linkcheck_demand(r.lc, "bond0"));
	deadline_passed(b);
	lc_process_due(r.lc);

	r.d.n_slaves = 1;
	snprintf(r.d.slaves[0].name, IFNAMSIZ, "e5");
	r.d.slaves[0].ifindex = 0;
	linkcheck_sync(r.lc, &r.want, &r.obs);
	assert_int_equal(b->n, 1);
	assert_string_equal(b->slaves[0], "e5");
	assert_ptr_equal(b->socks[0].bond, b);
	rig_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off_bond_is_off),
		cmocka_unit_test(demand_runs_one_check),
		cmocka_unit_test(trigger_while_running_is_next),
		cmocka_unit_test(answers_and_requests),
		cmocka_unit_test(no_peer_is_retried),
		cmocka_unit_test(node_budget_on_the_scheduler),
		cmocka_unit_test(shape_sizes_the_slaves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
