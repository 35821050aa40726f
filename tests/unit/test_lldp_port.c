/* SPDX-License-Identifier: MIT */
/* An LLDP record's speakers (lldp_eval.h, struct lldp_port): room only for
 * those heard, grown by doubling up to LLDP_SPEAKERS, the one heard longest
 * ago replaced past them; a deep copy; freed clean; and a frame that finds
 * no memory for a new speaker is not taken, counted, the record as it was.
 * Linked with -Wl,--wrap=realloc (tests/unit/meson.build): __wrap_realloc
 * below fails when told to. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lldp_eval.h"

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

static bool fail_realloc;

void *__wrap_realloc(void *p, size_t n)
{
	return fail_realloc ? NULL : __real_realloc(p, n);
}

static struct lldp_neighbor nbr(const char *port, uint16_t ttl)
{
	struct lldp_neighbor nb = {.chassis_subtype = 4, .port_subtype = 5, .ttl = ttl};
	snprintf(nb.chassis_id, sizeof(nb.chassis_id), "02:00:00:00:00:01");
	snprintf(nb.port_id, sizeof(nb.port_id), "%s", port);
	return nb;
}

/* The record's speakers by port, oldest first: "x1,x2". */
static void speakers(const struct lldp_port *p, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < p->n_sp; i++) {
		size_t o = strlen(out);
		snprintf(out + o, len - o, "%s%s", i ? "," : "", p->sp[i].nb.port_id);
	}
}

/* Each step: a frame from a speaker (port x..) at t with a TTL, or an
 * expiry (port NULL) at t; then the speakers kept and the room held. */
static const struct {
	int64_t t;
	const char *port;
	uint16_t ttl;
	const char *want;
	size_t cap;
} steps[] = {
	{0, NULL, 0, "", 0},                /* nothing heard: no room */
	{1000, "x1", 120, "x1", 1},         /* one speaker: room for one */
	{2000, "x1", 120, "x1", 1},         /* heard again: the same room */
	{3000, "x2", 120, "x1,x2", 2},      /* doubled */
	{4000, "x3", 120, "x1,x2,x3", 4},   /* doubled */
	{5000, "x4", 120, "x1,x2,x3,x4", 4},
	{6000, "x1", 120, "x1,x2,x3,x4", 4}, /* x1 heard again: now x2 is oldest */
	{7000, "x5", 120, "x1,x3,x4,x5", 4}, /* bounded: x2 (heard longest ago) replaced */
	{8000, "x6", 120, "x1,x4,x5,x6", 4}, /* then x3 */
	{9000, "x4", 0, "x1,x5,x6", 4},     /* a shutdown LLDPDU forgets x4 */
	{126000, NULL, 0, "x5,x6", 4},      /* x1's TTL passed (heard at 6000) */
	{128000, NULL, 0, "", 0},           /* every TTL passed: no room kept */
	{130000, "x7", 10, "x7", 1},        /* heard again: grown again from one */
};

static void grows_with_speakers(void **state)
{
	(void)state;
	struct lldp_port p;
	char got[128];

	lldp_port_init(&p, "bond0", "e1", 0);
	assert_null(p.sp);
	assert_null(lldp_port_neighbour(&p));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].port) {
			struct lldp_neighbor nb = nbr(steps[i].port, steps[i].ttl);
			assert_int_equal(lldp_port_take(&p, &nb, steps[i].t, steps[i].t), 0);
		} else {
			lldp_port_expire(&p, steps[i].t);
		}
		speakers(&p, got, sizeof(got));
		if (strcmp(got, steps[i].want) != 0 || p.cap_sp != steps[i].cap)
			fail_msg("step %zu (t %lld): speakers \"%s\" room %zu, not \"%s\" room %zu",
				 i, (long long)steps[i].t, got, p.cap_sp, steps[i].want,
				 steps[i].cap);
		assert_true(p.n_sp <= p.cap_sp && p.cap_sp <= LLDP_SPEAKERS);
		assert_true(p.cap_sp == 0 || p.sp != NULL);
	}
	assert_int_equal(p.frames, 10);
	assert_int_equal(p.nomem, 0);
	lldp_port_free(&p);
	assert_null(p.sp);
	assert_int_equal(p.n_sp, 0);
	assert_int_equal(p.cap_sp, 0);
	assert_int_equal(p.sole, -1);
	assert_null(lldp_port_neighbour(&p));
	lldp_port_free(&p); /* twice is harmless */
}

static void copies_deep(void **state)
{
	(void)state;
	struct lldp_port live, shown, none, copy;
	char got[128];

	lldp_port_init(&live, "bond0", "e1", 0);
	lldp_port_init(&shown, "bond0", "e1", 0);
	for (int i = 0; i < 3; i++) {
		char port[8];
		snprintf(port, sizeof(port), "x%d", i + 1);
		struct lldp_neighbor nb = nbr(port, 120);
		assert_int_equal(lldp_port_take(&live, &nb, 1000 * i, 0), 0);
	}
	live.malformed = 5;
	assert_int_equal(lldp_port_copy(&shown, &live), 0);
	assert_ptr_not_equal(shown.sp, live.sp);
	assert_string_equal(shown.slave, "e1");
	assert_int_equal(shown.malformed, 5);
	assert_int_equal(shown.frames, 3);
	speakers(&shown, got, sizeof(got));
	assert_string_equal(got, "x1,x2,x3");
	/* the live record moves on; the copy stays */
	snprintf(live.sp[0].nb.port_id, sizeof(live.sp[0].nb.port_id), "moved");
	lldp_port_expire(&live, 2000 + 120000);
	assert_int_equal(live.n_sp, 0);
	assert_null(live.sp);
	speakers(&shown, got, sizeof(got));
	assert_string_equal(got, "x1,x2,x3");
	/* a smaller copy reuses the room it has */
	struct lldp_speaker *room = shown.sp;
	struct lldp_neighbor one = nbr("y1", 120);
	assert_int_equal(lldp_port_take(&live, &one, 200000, 0), 0);
	assert_int_equal(lldp_port_copy(&shown, &live), 0);
	assert_ptr_equal(shown.sp, room);
	speakers(&shown, got, sizeof(got));
	assert_string_equal(got, "y1");
	assert_ptr_equal(lldp_port_neighbour(&shown), &shown.sp[0]);
	/* a record that heard none copies to one that holds none */
	lldp_port_init(&none, "bond0", "e2", 0);
	lldp_port_init(&copy, "bond0", "e3", 0);
	assert_int_equal(lldp_port_copy(&copy, &none), 0);
	assert_int_equal(copy.n_sp, 0);
	assert_null(copy.sp);
	assert_string_equal(copy.slave, "e2");
	/* out of memory: the copy holds no speaker, and no leak */
	fail_realloc = true;
	int rc = lldp_port_copy(&copy, &live);
	fail_realloc = false;
	assert_int_equal(rc, -ENOMEM);
	assert_int_equal(copy.n_sp, 0);
	assert_null(copy.sp);
	lldp_port_free(&live);
	lldp_port_free(&shown);
	lldp_port_free(&none);
	lldp_port_free(&copy);
}

/* No memory for room for a new speaker: the frame is not taken (counted in
 * nomem, not in frames), the record as it was; a speaker already kept is
 * still heard (no room needed); and past LLDP_SPEAKERS no room is asked. */
static void out_of_memory(void **state)
{
	(void)state;
	struct lldp_port p;
	struct lldp_neighbor a = nbr("x1", 120), b = nbr("x2", 120);
	char got[128];

	lldp_port_init(&p, "bond0", "e1", 0);
	fail_realloc = true;
	assert_int_equal(lldp_port_take(&p, &a, 1000, 0), -ENOMEM);
	fail_realloc = false;
	assert_int_equal(p.n_sp, 0);
	assert_null(p.sp);
	assert_int_equal(p.frames, 0);
	assert_int_equal(p.nomem, 1);
	assert_int_equal(lldp_port_take(&p, &a, 2000, 0), 0);
	fail_realloc = true;
	assert_int_equal(lldp_port_take(&p, &b, 3000, 0), -ENOMEM);
	assert_int_equal(lldp_port_take(&p, &a, 4000, 0), 0); /* kept: no room asked */
	fail_realloc = false;
	speakers(&p, got, sizeof(got));
	assert_string_equal(got, "x1");
	assert_int_equal(p.sp[0].heard_ms, 4000);
	assert_int_equal(p.frames, 2);
	assert_int_equal(p.nomem, 2);
	/* full: a new speaker replaces the oldest without asking for room */
	for (int i = 2; i <= LLDP_SPEAKERS; i++) {
		char port[8];
		snprintf(port, sizeof(port), "x%d", i);
		struct lldp_neighbor nb = nbr(port, 120);
		assert_int_equal(lldp_port_take(&p, &nb, 5000 + i, 0), 0);
	}
	fail_realloc = true;
	struct lldp_neighbor z = nbr("z", 120);
	assert_int_equal(lldp_port_take(&p, &z, 9000, 0), 0);
	fail_realloc = false;
	speakers(&p, got, sizeof(got));
	assert_string_equal(got, "x2,x3,x4,z");
	assert_int_equal(p.nomem, 2);
	lldp_port_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grows_with_speakers),
		cmocka_unit_test(copies_deep),
		cmocka_unit_test(out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
