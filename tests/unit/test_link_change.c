/* SPDX-License-Identifier: MIT */
/* What a link's change means beside the plan (link_change.h): a table of
 * links before and after, and what must look again. */
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "link_change.h"

enum edit {
	E_NONE, E_CAME, E_WENT, E_RENAMED, E_ALTNAME, E_ALTNAME_TEXT, E_PERM_ADDR, E_PERM_GAINED,
	E_PATH, E_PORT, E_CARRIER_LOST, E_CARRIER_BACK, E_ADMIN_DOWN, E_MTU,
};

static const struct {
	const char *what;
	enum edit edit;
	bool lldp, matches, speed;
} cases[] = {
	{"nothing changed", E_NONE, false, false, false},
	{"a link appeared", E_CAME, true, true, true},
	{"a link went", E_WENT, true, true, true},
	{"renamed: LLDP's groups and the matches", E_RENAMED, true, true, false},
	{"an altname added", E_ALTNAME, false, true, false},
	{"an altname changed", E_ALTNAME_TEXT, false, true, false},
	{"another permanent address", E_PERM_ADDR, false, true, false},
	{"a permanent address where none was", E_PERM_GAINED, false, true, false},
	{"another udev path", E_PATH, false, true, false},
	{"another port of the device", E_PORT, false, true, false},
	{"carrier lost: the speed is read again", E_CARRIER_LOST, false, false, true},
	{"carrier back: renegotiated, read again", E_CARRIER_BACK, false, false, true},
	{"set down with the carrier kept: nothing", E_ADMIN_DOWN, false, false, false},
	{"another MTU: none of these", E_MTU, false, false, false},
};

static void base(struct obs_link *l)
{
	*l = (struct obs_link){.ifindex = 3, .flags = IFF_UP | IFF_LOWER_UP, .mtu = 1500,
			       .n_altnames = 1, .has_perm_addr = true,
			       .perm_addr = {0x02, 0, 0, 0, 0, 0x01}, .dev_port = 0};
	snprintf(l->name, sizeof(l->name), "eth0");
	snprintf(l->altnames[0], sizeof(l->altnames[0]), "enp1s0");
	snprintf(l->id_path, sizeof(l->id_path), "pci-0000:01:00.0");
}

static void change_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obs_link old, now;
		base(&old);
		base(&now);
		switch (cases[i].edit) {
		case E_NONE:
		case E_CAME:
		case E_WENT:
			break;
		case E_RENAMED:
			snprintf(now.name, sizeof(now.name), "lan0");
			break;
		case E_ALTNAME:
			snprintf(now.altnames[1], sizeof(now.altnames[1]), "enx020000000001");
			now.n_altnames = 2;
			break;
		case E_ALTNAME_TEXT:
			snprintf(now.altnames[0], sizeof(now.altnames[0]), "enp2s0");
			break;
		case E_PERM_ADDR:
			now.perm_addr[5] = 0x02;
			break;
		case E_PERM_GAINED:
			old.has_perm_addr = false;
			memset(old.perm_addr, 0, sizeof(old.perm_addr));
			break;
		case E_PATH:
			snprintf(now.id_path, sizeof(now.id_path), "pci-0000:02:00.0");
			break;
		case E_PORT:
			now.dev_port = 1;
			break;
		case E_CARRIER_LOST:
			now.flags = IFF_UP;
			break;
		case E_CARRIER_BACK:
			old.flags = IFF_UP;
			break;
		case E_ADMIN_DOWN:
			now.flags = IFF_LOWER_UP;
			break;
		case E_MTU:
			now.mtu = 9000;
			break;
		}
		struct link_change c = link_change_of(cases[i].edit == E_CAME ? NULL : &old,
						      cases[i].edit == E_WENT ? NULL : &now);
		if (c.lldp != cases[i].lldp || c.matches != cases[i].matches ||
		    c.speed != cases[i].speed)
			fail_msg("%s: lldp %d matches %d speed %d, want %d %d %d", cases[i].what,
				 c.lldp, c.matches, c.speed, cases[i].lldp, cases[i].matches,
				 cases[i].speed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(change_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
