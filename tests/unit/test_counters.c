/* SPDX-License-Identifier: MIT */
/* The slaves' error counters side by side (counters_eval.h): which growth
 * is a finding, and which is noise or shared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "counters_eval.h"

static struct slave_counts sc(const char *name, uint64_t errors, uint64_t crc, uint64_t drops)
{
	struct slave_counts c = {.known = true, .errors = errors, .crc = crc, .drops = drops};
	snprintf(c.name, sizeof(c.name), "%s", name);
	return c;
}

static void one_slave_with_crc_errors(void **state)
{
	(void)state;
	struct findings f = {0};
	struct slave_counts then[3] = {sc("e1", 5, 0, 100), sc("e2", 5, 2, 100), sc("e3", 0, 0, 0)};
	struct slave_counts now[3] = {sc("e1", 5, 0, 100), sc("e2", 125, 42, 100), sc("e3", 1, 0, 0)};

	assert_int_equal(counters_eval("bond0", then, now, 3, 30, &f), 0);
	assert_int_equal(f.n, 1);
	const struct finding *x = &f.v[0];
	assert_int_equal(x->source, FSRC_COUNTERS);
	assert_int_equal(x->kind, FK_SLAVE_ERRORS);
	assert_int_equal(x->severity, FSEV_DEGRADED);
	assert_string_equal(x->bond, "bond0");
	assert_int_equal(x->n_slaves, 1);
	assert_string_equal(x->slaves[0], "e2");
	assert_string_equal(x->evidence, "e2 had 120 errors (40 CRC) in 30 s while its siblings "
					 "had less than a tenth of that");
	assert_non_null(strstr(x->fix, "e2's cable"));
	assert_string_equal(finding_kind_name(x->kind), "slave-errors");
	assert_string_equal(finding_source_name(x->source), "counters");
	findings_free(&f);
}

static void one_slave_dropping(void **state)
{
	(void)state;
	struct findings f = {0};
	struct slave_counts then[2] = {sc("e1", 0, 0, 0), sc("e2", 0, 0, 0)};
	struct slave_counts now[2] = {sc("e1", 0, 0, 500), sc("e2", 0, 0, 49)};

	assert_int_equal(counters_eval("bond0", then, now, 2, 60, &f), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.v[0].slaves[0], "e1");
	assert_string_equal(f.v[0].evidence, "e1 had 500 drops in 60 s while its sibling had less "
					     "than a tenth of that");
	findings_free(&f);
}

/* Not findings: noise below the minimum, growth shared with a sibling,
 * a slave alone, a sibling unknown, counters that went backwards. */
static void quiet_cases(void **state)
{
	(void)state;
	struct findings f = {0};
	struct slave_counts then[2] = {sc("e1", 0, 0, 0), sc("e2", 0, 0, 0)};
	struct slave_counts now[2];

	now[0] = sc("e1", COUNTERS_MIN_GROWTH - 1, 0, 0);
	now[1] = sc("e2", 0, 0, 0);
	assert_int_equal(counters_eval("b", then, now, 2, 30, &f), 0);
	assert_int_equal(f.n, 0);

	/* Both grow: the cause is shared (exactly a tenth is shared too). */
	now[0] = sc("e1", 100, 0, 0);
	now[1] = sc("e2", 10, 0, 0);
	assert_int_equal(counters_eval("b", then, now, 2, 30, &f), 0);
	assert_int_equal(f.n, 0);

	/* Alone in its bond: nothing to compare with. */
	assert_int_equal(counters_eval("b", then, now, 1, 30, &f), 0);
	assert_int_equal(f.n, 0);

	/* The sibling could not be read. */
	now[1] = sc("e2", 0, 0, 0);
	now[1].known = false;
	assert_int_equal(counters_eval("b", then, now, 2, 30, &f), 0);
	assert_int_equal(f.n, 0);

	/* Re-created: its counters restarted below the last look. */
	then[0] = sc("e1", 1000, 0, 0);
	now[0] = sc("e1", 200, 0, 0);
	now[1] = sc("e2", 0, 0, 0);
	assert_int_equal(counters_eval("b", then, now, 2, 30, &f), 0);
	assert_int_equal(f.n, 0);

	/* A different slave at that place (the config changed between looks). */
	then[0] = sc("e9", 0, 0, 0);
	now[0] = sc("e1", 500, 0, 0);
	assert_int_equal(counters_eval("b", then, now, 2, 30, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
}

/* Errors on one slave and drops on another: one finding each. */
static void errors_and_drops_apart(void **state)
{
	(void)state;
	struct findings f = {0};
	struct slave_counts then[3] = {sc("e1", 0, 0, 0), sc("e2", 0, 0, 0), sc("e3", 0, 0, 0)};
	struct slave_counts now[3] = {sc("e1", 50, 50, 0), sc("e2", 0, 0, 0), sc("e3", 0, 0, 70)};

	assert_int_equal(counters_eval("bond0", then, now, 3, 10, &f), 0);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.v[0].slaves[0], "e1");
	assert_string_equal(f.v[1].slaves[0], "e3");
	assert_non_null(strstr(f.v[1].evidence, "70 drops"));
	findings_free(&f);
}

/* Every bond at two looks (counters_eval_all): each bond's slaves judged
 * among themselves, in config order; a bond to delete not judged; no look
 * before, or one of other slaves: nothing to compare, the last findings
 * emptied. */
static void every_bond(void **state)
{
	(void)state;
	struct desired_bond b[3] = {{.name = "bond0", .n_slaves = 2},
				    {.name = "bond1", .n_slaves = 2, .absent = true},
				    {.name = "bond2", .n_slaves = 2}};
	struct desired want = {.bonds = b, .n_bonds = 3};
	struct slave_counts then[6] = {sc("e1", 0, 0, 0), sc("e2", 0, 0, 0), sc("e3", 0, 0, 0),
				       sc("e4", 0, 0, 0), sc("e5", 0, 0, 0), sc("e6", 0, 0, 0)};
	/* e2 and e3 grow alone among their siblings; e5 with e6 */
	struct slave_counts now[6] = {sc("e1", 0, 0, 0), sc("e2", 90, 0, 0), sc("e3", 90, 0, 0),
				      sc("e4", 0, 0, 0), sc("e5", 90, 0, 0), sc("e6", 0, 0, 0)};
	struct findings f = {0};

	/* no look before: nothing yet, whatever was there goes */
	assert_int_equal(counters_eval("old", then, now, 2, 10, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(counters_eval_all(&want, NULL, 0, now, 6, 10, &f), 0);
	assert_int_equal(f.n, 0);

	/* the two looks of the same slaves: bond0's e2 and bond2's e5 */
	assert_int_equal(counters_eval_all(&want, then, 6, now, 6, 10, &f), 0);
	assert_int_equal(f.n, 2);
	assert_string_equal(f.v[0].bond, "bond0");
	assert_string_equal(f.v[0].slaves[0], "e2");
	assert_string_equal(f.v[1].bond, "bond2");
	assert_string_equal(f.v[1].slaves[0], "e5");

	/* a look of another configuration (fewer slaves): emptied */
	assert_int_equal(counters_eval_all(&want, then, 4, now, 6, 10, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_slave_with_crc_errors),
		cmocka_unit_test(one_slave_dropping),
		cmocka_unit_test(quiet_cases),
		cmocka_unit_test(errors_and_drops_apart),
		cmocka_unit_test(every_bond),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
