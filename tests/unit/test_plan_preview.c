/* SPDX-License-Identifier: MIT */
/* bondd --check --plan's words from a picture of the kernel
 * (plan_preview_of.c): which link each slave entry names now, the
 * conflicts on the error stream, and the plan a start would make, as text
 * and as JSON, with its "something would change" answer.  Links as data;
 * no kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <cmocka.h>

#include "config.h"
#include "observed.h"
#include "plan_preview.h"

static void put(struct observed *obs, const char *name, int ifindex, int last_octet,
		const char *path, int port)
{
	struct obs_link l = {.ifindex = ifindex, .flags = IFF_UP | IFF_LOWER_UP, .mtu = 1500,
			     .dev_port = port};
	snprintf(l.name, sizeof(l.name), "%s", name);
	if (last_octet >= 0) {
		l.has_perm_addr = true;
		memcpy(l.perm_addr, (uint8_t[]){0x02, 0, 0, 0, 0xaa, (uint8_t)last_octet}, 6);
	}
	snprintf(l.id_path, sizeof(l.id_path), "%s", path ? path : "");
	assert_int_equal(observed_put_link(obs, &l), 0);
}

static void load(struct desired *want, const char *conf)
{
	struct config_diag diag = {0};
	assert_int_equal(config_parse("bondd.conf", conf, strlen(conf), want, &diag), 0);
	config_diag_free(&diag);
}

/* What one call wrote to out and to err_out. */
struct said {
	char *out, *err;
	size_t out_len, err_len;
	int ret;
};

static struct said identity_said(const char *conf, const struct observed *obs, bool show,
				 struct desired *want)
{
	struct said s = {0};
	FILE *out = open_memstream(&s.out, &s.out_len), *err = open_memstream(&s.err, &s.err_len);

	assert_non_null(out);
	assert_non_null(err);
	load(want, conf);
	s.ret = identity_preview_of(want, obs, out, err, show);
	fclose(out);
	fclose(err);
	return s;
}

static void said_free(struct said *s)
{
	free(s->out);
	free(s->err);
}

static const struct {
	const char *what;
	const char *conf;
	bool show;
	int ret;
	const char *out;           /* exactly */
	const char *err;           /* a part of it, or "" for nothing */
	const char *first_name;    /* bond0's first entry's name afterwards */
} id_cases[] = {
	{"by mac: the link's name and its address",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01 eth2\n", true, 0,
	 "bond0: slave mac:02:00:00:00:aa:01 is eth1 (ifindex 11, permanent address "
	 "02:00:00:00:aa:01)\n", "", "eth1"},
	{"by path: the device's path and port",
	 "[bond0]\nslaves = path:pci-0000:3b:00.0/port1\n", true, 0,
	 "bond0: slave path:pci-0000:3b:00.0/port1 is eth4 (ifindex 14, path "
	 "pci-0000:3b:00.0/port1)\n", "", "eth4"},
	{"a plain name that is the link's own: nothing to say", "[bond0]\nslaves = eth2\n", true,
	 0, "", "", "eth2"},
	{"a missing entry", "[bond0]\nslaves = mac:02:00:00:00:aa:77\n", true, 0,
	 "bond0: slave mac:02:00:00:00:aa:77 matches no link now (a missing slave)\n", "", NULL},
	{"one address on two links: none is taken", "[bond0]\nslaves = mac:02:00:00:00:aa:05\n",
	 true, 0, "bond0: slave mac:02:00:00:00:aa:05 matches eth5 and eth6: none is taken\n", "",
	 NULL},
	{"without show: matches named, nothing said",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01\n", false, 0, "", "", "eth1"},
	{"one link by two entries: a conflict on err_out, said once",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01 eth1\n", true, 2, "", "bondd.conf:2", NULL},
};

static void entries_matched(void **state)
{
	(void)state;
	struct observed obs = {0};

	put(&obs, "eth1", 11, 1, NULL, 0);
	put(&obs, "eth2", 12, 2, NULL, 0);
	put(&obs, "eth3", 13, -1, "pci-0000:3b:00.0", 0);
	put(&obs, "eth4", 14, -1, "pci-0000:3b:00.0", 1);
	put(&obs, "eth5", 15, 5, NULL, 0);
	put(&obs, "eth6", 16, 5, NULL, 0);
	for (size_t i = 0; i < sizeof(id_cases) / sizeof(id_cases[0]); i++) {
		struct desired want = {0};
		struct said s = identity_said(id_cases[i].conf, &obs, id_cases[i].show, &want);
		if (s.ret != id_cases[i].ret || strcmp(s.out, id_cases[i].out) != 0 ||
		    (id_cases[i].err[0] ? !strstr(s.err, id_cases[i].err) : s.err[0] != '\0'))
			fail_msg("%s: %d, out \"%s\", err \"%s\"", id_cases[i].what, s.ret, s.out,
				 s.err);
		/* a conflict is said once, at the pair's later entry */
		if (s.ret > 0 && strchr(s.err, '\n') != s.err + strlen(s.err) - 1)
			fail_msg("%s: said more than once: %s", id_cases[i].what, s.err);
		if (id_cases[i].first_name &&
		    strcmp(want.bonds[0].slaves[0].name, id_cases[i].first_name) != 0)
			fail_msg("%s: named %s", id_cases[i].what, want.bonds[0].slaves[0].name);
		said_free(&s);
		desired_free(&want);
	}
	observed_free(&obs);
}

/* The plan a start would make against what the kernel has: a bond to
 * create, a slave not there said as such; as JSON, one document; nothing
 * to do for a bond to delete that is not there. */
static void plan_said(void **state)
{
	(void)state;
	struct observed obs = {0};
	struct desired want = {0};
	char *text = NULL;
	size_t len = 0;

	put(&obs, "eth1", 11, 1, NULL, 0);
	load(&want, "[bond0]\nmode = active-backup\nslaves = eth1 eth9\n");
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(plan_preview_of(&want, &obs, false, f), 1);
	fclose(f);
	assert_non_null(strstr(text, "bond0: eth9: not found: enslaved when it appears\n"));
	assert_null(strstr(text, "bond0: eth1: not found"));
	assert_non_null(strstr(text, "bond0"));
	free(text);

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(plan_preview_of(&want, &obs, true, f), 1);
	fclose(f);
	assert_true(text[0] == '{');
	assert_null(strstr(text, "not found: enslaved"));
	free(text);
	desired_free(&want);

	/* state = absent, and no such bond: nothing would change */
	load(&want, "[bond7]\nstate = absent\n");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(plan_preview_of(&want, &obs, false, f), 0);
	fclose(f);
	free(text);
	desired_free(&want);
	observed_free(&obs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries_matched),
		cmocka_unit_test(plan_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
