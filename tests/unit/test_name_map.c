/* SPDX-License-Identifier: MIT */
/* The name hash table and the shared interface-name check. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ifname.h"
#include "name_map.h"

/* Many names (growth from empty through several doublings), each found
 * with its value, names never put not found, a put again replaces. */
static void put_get_grow(void **state)
{
	struct name_map m = {0};
	char name[IFNAMSIZ];
	size_t v;

	(void)state;
	assert_false(name_map_get(&m, "eth0", &v));
	for (size_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		assert_int_equal(name_map_put(&m, name, i * 7), 0);
	}
	assert_int_equal(m.n, 5000);
	assert_true(m.cap >= 2 * m.n);
	for (size_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%zu", i);
		assert_true(name_map_get(&m, name, &v));
		assert_int_equal(v, i * 7);
		snprintf(name, sizeof(name), "x%zu", i);
		assert_false(name_map_get(&m, name, &v));
	}
	assert_int_equal(name_map_put(&m, "n42", 1), 0);
	assert_int_equal(m.n, 5000);
	assert_true(name_map_get(&m, "n42", &v));
	assert_int_equal(v, 1);
	assert_false(name_map_get(&m, "", &v));
	assert_int_equal(name_map_put(&m, "", 1), -EINVAL);
	assert_int_equal(name_map_put(&m, "sixteen-bytes-xx", 1), -EINVAL);
	name_map_free(&m);
	assert_false(name_map_get(&m, "n1", &v));
}

static void names(void **state)
{
	(void)state;
	assert_null(ifname_problem("eth0"));
	assert_null(ifname_problem("enp1s0f0.100"));
	assert_null(ifname_problem("abcdefghijklmno"));
	assert_string_equal(ifname_problem("abcdefghijklmnop"), "is longer than 15 bytes");
	assert_string_equal(ifname_problem(""), "is empty");
	assert_string_equal(ifname_problem(".."), "is reserved");
	assert_string_equal(ifname_problem("[bond0]"), "contains a bracket");
	assert_string_equal(ifname_problem("bond0]"), "contains a bracket");
	assert_string_equal(ifname_problem("a/b"), "contains \"/\"");
	assert_string_equal(ifname_problem("a:b"), "contains \":\"");
	assert_string_equal(ifname_problem("b%d"), "contains \"%\"");
	assert_string_equal(ifname_problem("a\tb"), "contains a blank or a control character");
	/* What the kernel takes: any other byte, UTF-8 included. */
	assert_null(ifname_problem("..."));
	assert_null(ifname_problem("b-1_2.3@4+5=x"));
	assert_null(ifname_problem("b\xc3\xb6nd"));
	assert_null(ifname_problem("b\x85"));
	/* The kernel's isspace (lib/ctype.c) counts 0xa0 as a blank: a name
	 * with it, alone or as the second byte of a UTF-8 "à", is refused. */
	assert_non_null(ifname_problem("b\xc3\xa0"));
	assert_non_null(ifname_problem("b\xc2\xa0x"));
	assert_non_null(ifname_problem("b\xa0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_get_grow),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
