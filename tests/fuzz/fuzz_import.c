/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: bondd-import's readers, which parse other tools' files from
 * disk.  The input is cut at NUL bytes into up to 8 files; each reader gets
 * them under names of its format (ifcfg-*, *.netdev / *.network and their
 * drop-ins, *.nmconnection, netplan's *.yaml, ifupdown's interfaces and the files its
 * source lines name; teamd's JSON under any name).  Whatever the bytes, a reader and the renderer must
 * succeed, and the text must be a configuration bondd accepts; the companion
 * (import_companion) must be made as well.  Built with
 * fuzz_main.c as a replay-and-mutate driver in the unit suite.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 8

static void one(int (*read)(const struct import_file *, size_t, struct import_result *),
		const struct import_file *files, size_t n)
{
	struct import_result r = {0};
	struct strbuf text = {0};
	struct desired d = {0};

	if (read(files, n, &r) != 0 || import_render(&r, &text) != 0)
		__builtin_trap();
	if (config_parse("import", text.s, text.len, &d, NULL) != 0)
		__builtin_trap();
	struct strbuf comp = {0};
	if (import_companion(&r, "", &comp) != 0)
		__builtin_trap();
	sb_free(&comp);
	desired_free(&d);
	sb_free(&text);
	import_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[6][MAX_FILES] = {
		{"ifcfg-bond0", "ifcfg-e1", "ifcfg-e2", "ifcfg-bond1", "ifcfg-e3", "ifcfg-x",
		 "ifcfg-e4", "ifcfg-lo"},
		{"10-b.netdev", "20-p.network", "30-b.network", "11-c.netdev", "21-q.network",
		 "31-c.network", "30-b.network.d/10-mac.conf", "20-p.network.d/50-dhcp.conf"},
		{"b.nmconnection", "p1.nmconnection", "p2.nmconnection", "c.nmconnection",
		 "p3", "p4.nmconnection", "x", "y.nmconnection"},
		{"t0.conf", "t1.conf", "t2.json", "t3", "t4", "t5", "t6", "t7"},
		{"/etc/netplan/50-a.yaml", "/etc/netplan/60-b.yaml", "/run/netplan/50-a.yaml",
		 "/lib/netplan/10-c.yaml", "99-d.yaml", "x.yaml", "70-e.yaml", "00.yaml"},
		{"/etc/network/interfaces", "/etc/network/interfaces.d/a",
		 "/etc/network/interfaces.d/b", "/etc/network/more.d/c", "/etc/network/more.d/d.x",
		 "interfaces", "/etc/network/interfaces.d/a", "/e"},
	};
	struct import_file files[6][MAX_FILES];
	const char *text = (const char *)data;
	size_t n = 0;

	for (size_t at = 0; at <= size && n < MAX_FILES;) {
		const char *nul = memchr(text + at, '\0', size - at);
		size_t len = nul ? (size_t)(nul - (text + at)) : size - at;
		for (int f = 0; f < 6; f++)
			files[f][n] = (struct import_file){names[f][n], text + at, len};
		n++;
		at += len + 1;
	}
	one(import_ifcfg, files[0], n);
	one(import_networkd, files[1], n);
	one(import_nm, files[2], n);
	one(import_teamd, files[3], n);
	one(import_netplan, files[4], n);
	one(import_ifupdown, files[5], n);
	return 0;
}
