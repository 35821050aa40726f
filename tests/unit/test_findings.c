/* SPDX-License-Identifier: MIT */
/* The findings list: adding, the first degraded finding, JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "findings.h"
#include "grow.h"

/* The findings about one bond, list by list, none of another bond's. */
static void about_one_bond(void **state)
{
	(void)state;
	struct findings link = {0}, host = {0};
	const struct findings *lists[FSRC__COUNT] = {[FSRC_LINK_CHECK] = &link};
	const struct finding *found[4];

	assert_non_null(findings_add(&host, FSRC_HOST_CHECK, FSEV_INFO, FK_MODE_NO_STRIPE, "bond0"));
	struct finding *x = findings_add(&link, FSRC_LINK_CHECK, FSEV_DEGRADED, FK_JUMBO_DROPPED,
					 "bond1");
	assert_non_null(x);
	finding_add_slave(x, "e3");
	assert_non_null(findings_add(&link, FSRC_LINK_CHECK, FSEV_INFO, FK_CROSSED, "bond0"));
	assert_int_equal(findings_about(lists, FSRC__COUNT, "bond0", NULL), 1);
	assert_int_equal(findings_about(lists, FSRC__COUNT, "bond1", found), 1);
	assert_ptr_equal(found[0], &link.v[0]);
	lists[FSRC_HOST_CHECK] = &host;
	assert_int_equal(findings_about(lists, FSRC__COUNT, "bond0", found), 2);
	assert_ptr_equal(found[0], &link.v[1]);
	assert_ptr_equal(found[1], &host.v[0]);
	findings_clear(&link);
	assert_int_equal(findings_about(lists, FSRC__COUNT, "bond1", NULL), 0);
	findings_free(&link);
	findings_free(&host);
}

static void slaves_are_capped(void **state)
{
	(void)state;
	struct findings f = {0};
	struct finding *x = findings_add(&f, FSRC_HOST_CHECK, FSEV_DEGRADED, FK_SHARED_CARD, "b");
	char name[IFNAMSIZ];

	for (int i = 0; i < FINDING_MAX_SLAVES + 3; i++) {
		snprintf(name, sizeof(name), "e%d", i);
		finding_add_slave(x, name);
	}
	assert_int_equal(x->n_slaves, FINDING_MAX_SLAVES);
	assert_string_equal(x->slaves[FINDING_MAX_SLAVES - 1], "e7");
	findings_free(&f);
}

static void json_only_the_bond_asked(void **state)
{
	(void)state;
	struct findings link = {0}, host = {0};
	const struct findings *lists[FSRC__COUNT] = {&link, &host};
	struct strbuf out = {0};

	struct finding *x = findings_add(&link, FSRC_LINK_CHECK, FSEV_DEGRADED, FK_SHARED_DOMAIN,
					 "bond0");
	finding_add_slave(x, "e1");
	finding_add_slave(x, "e2");
	snprintf(x->evidence, sizeof(x->evidence), "a probe from e1 arrived on e2");
	snprintf(x->fix, sizeof(x->fix), "put each port in a \"VLAN\" of its own");
	findings_add(&host, FSRC_HOST_CHECK, FSEV_INFO, FK_TCP_SETTING, "bond9");
	const struct finding *found[2];
	findings_json(&out, found, findings_about(lists, FSRC__COUNT, "bond0", found));
	assert_string_equal(out.s,
		"[{\"source\":\"link_check\",\"kind\":\"shared-domain\",\"severity\":\"degraded\","
		"\"slaves\":[\"e1\",\"e2\"],\"evidence\":\"a probe from e1 arrived on e2\","
		"\"fix\":\"put each port in a \\\"VLAN\\\" of its own\",\"pending\":false}]");
	sb_reset(&out);
	findings_json(&out, found, findings_about(lists, FSRC__COUNT, "bond1", found));
	assert_string_equal(out.s, "[]");
	sb_free(&out);
	findings_free(&link);
	findings_free(&host);
}

static void names(void **state)
{
	(void)state;
	for (int k = 0; k < FK__COUNT; k++)
		assert_string_not_equal(finding_kind_name((enum finding_kind)k), "unknown");
	assert_string_equal(finding_kind_name(FK__COUNT), "unknown");
	assert_string_equal(finding_source_name(FSRC_HOST_CHECK), "host_check");
	assert_string_equal(finding_severity_name(FSEV_DEGRADED), "degraded");
}

/* grow_append: the new element is zeroed even where the memory held data,
 * the array pointer, count and room move together, and a failure changes
 * nothing. */
static void grow_append_zeroes_and_counts(void **state)
{
	(void)state;
	int *v = NULL;
	size_t n = 0, cap = 0;
	for (int i = 0; i < 5; i++) {
		int *p = grow_append(&v, &cap, &n, sizeof(*p), 2, NULL);
		assert_non_null(p);
		assert_int_equal(n, (size_t)i + 1);
		assert_ptr_equal(p, &v[n - 1]);
		assert_int_equal(*p, 0);
		*p = 100 + i;
	}
	assert_int_equal(cap, 8);
	assert_int_equal(v[4], 104);
	n = 2; /* v[2] still holds 102 */
	int *old = v;
	int *p = grow_append(&v, &cap, &n, sizeof(*p), 2, NULL);
	assert_ptr_equal(v, old); /* room enough: not moved */
	assert_ptr_equal(p, &v[2]);
	assert_int_equal(n, 3);
	assert_int_equal(v[2], 0);
	assert_int_equal(v[1], 101);
	/* With init, a copy of it. */
	int seven = 7;
	p = grow_append(&v, &cap, &n, sizeof(*p), 2, &seven);
	assert_ptr_equal(p, &v[3]);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 7);
	/* Room for SIZE_MAX / 2 bytes and more cannot be had: nothing moves. */
	size_t n2 = 3, cap2 = 3; /* v holds more: only *cap2 counts */
	assert_null(grow_append(&v, &cap2, &n2, SIZE_MAX / 2, 1, NULL));
	assert_ptr_equal(v, old);
	assert_int_equal(n2, 3);
	assert_int_equal(cap2, 3);
	free(v);
}

/* A finding held already: its kind, bond and evidence; the search goes
 * round from where the last one ended. */
/* grow_array_max: doubling stops at the bound, and a need above it is
 * refused with the array untouched. */
static void grow_array_stops_at_max(void **state)
{
	(void)state;
	static const struct {
		size_t cap, need, first, max;
		bool ok;
		size_t cap_after;
	} cases[] = {
		{0, 1, 4, 256, true, 4},
		{4, 5, 4, 256, true, 8},
		{128, 129, 4, 256, true, 256},
		{0, 3, 1, 4, true, 4},      /* 1, 2, 4 */
		{4, 4, 1, 4, true, 4},      /* room already */
		{4, 5, 1, 4, false, 4},     /* above the bound */
		{0, 300, 4, 256, false, 0},
		{0, 6, 4, 6, true, 6},      /* doubling to 8 cut to 6 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t cap = cases[i].cap;
		int *v = cap ? calloc(cap, sizeof(*v)) : NULL;
		int *w = grow_array_max(v, &cap, cases[i].need, sizeof(*v), cases[i].first,
					cases[i].max);
		if ((w != NULL) != cases[i].ok || cap != cases[i].cap_after)
			fail_msg("case %zu: %s, cap %zu", i, w ? "grown" : "refused", cap);
		free(w ? w : v);
	}
}

static void has_one_like_it(void **state)
{
	(void)state;
	struct findings old = {0}, next = {0};
	static const struct {
		enum finding_kind kind;
		const char *bond, *evidence;
		bool held;
	} cases[] = {
		{FK_MODE_NO_STRIPE, "bond0", "balance-xor", true},
		{FK_MODE_NO_STRIPE, "bond1", "balance-xor", true},
		{FK_MODE_NO_STRIPE, "bond2", "balance-xor", false},  /* another bond */
		{FK_MODE_NO_STRIPE, "bond1", "active-backup", false}, /* other words */
		{FK_CROSSED, "bond1", "balance-xor", false},          /* another kind */
		{FK_MODE_NO_STRIPE, "bond0", "balance-xor", true},    /* found going round */
	};

	for (size_t i = 0; i < 2; i++) {
		struct finding *x = findings_add(&old, FSRC_HOST_CHECK, FSEV_INFO, cases[i].kind,
						 cases[i].bond);
		assert_non_null(x);
		snprintf(x->evidence, sizeof(x->evidence), "%s", cases[i].evidence);
	}
	size_t hint = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		findings_clear(&next);
		struct finding *x = findings_add(&next, FSRC_HOST_CHECK, FSEV_INFO, cases[i].kind,
						 cases[i].bond);
		assert_non_null(x);
		snprintf(x->evidence, sizeof(x->evidence), "%s", cases[i].evidence);
		if (findings_has(&old, x, &hint) != cases[i].held)
			fail_msg("case %zu (%s, %s): held %d", i, cases[i].bond, cases[i].evidence,
				 !cases[i].held);
	}
	assert_int_equal(hint, 1); /* after bond0's, where the last search ended */
	findings_clear(&old);
	assert_false(findings_has(&old, &next.v[0], &hint)); /* none at all */
	findings_free(&old);
	findings_free(&next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(about_one_bond),
		cmocka_unit_test(slaves_are_capped),
		cmocka_unit_test(json_only_the_bond_asked),
		cmocka_unit_test(names),
		cmocka_unit_test(has_one_like_it),
		cmocka_unit_test(grow_append_zeroes_and_counts),
		cmocka_unit_test(grow_array_stops_at_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
