/* SPDX-License-Identifier: MIT */
/*
 * bondd-import's readers and renderer: files written in each format's
 * documented syntax (ifcfg as RHEL's initscripts read it, systemd.netdev(5)
 * and systemd.network(5), nm-settings-keyfile(5)), one test per feature.
 * Every rendered text is parsed by bondd's config parser (what `bondd
 * --check` runs) and the bond it describes is compared with what the
 * source means.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bond_option_table.h"
#include "config.h"
#include "diag_line.h"
#include "import.h"

typedef int (*reader_fn)(const struct import_file *, size_t, struct import_result *);

#define FILES(...) ((const struct import_file[]){__VA_ARGS__})
#define F(name, text) {name, text, sizeof(text) - 1}
#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

struct imported {
	struct import_result r;
	struct strbuf text;
	struct desired d;
};

/* Runs a reader and the renderer; the text must pass bondd's parser. */
static void run(reader_fn read, const struct import_file *files, size_t n, struct imported *out)
{
	struct config_diag diag = {0};

	memset(out, 0, sizeof(*out));
	assert_int_equal(read(files, n, &out->r), 0);
	assert_int_equal(import_render(&out->r, &out->text), 0);
	int rc = config_parse("import", out->text.s, out->text.len, &out->d, &diag);
	if (rc != 0) {
		for (size_t i = 0; i < config_diag_count(&diag, CONFIG_ERROR); i++)
			print_error("%s\n", diag_line(&diag, CONFIG_ERROR, i));
		print_error("%s", out->text.s);
	}
	assert_int_equal(rc, 0);
	config_diag_free(&diag);
}

static void done(struct imported *im)
{
	import_result_free(&im->r);
	sb_free(&im->text);
	desired_free(&im->d);
}

static const struct desired_bond *bond(const struct imported *im, const char *name)
{
	const struct desired_bond *b = desired_find_bond(&im->d, name);
	if (!b)
		print_error("no bond %s in:\n%s", name, im->text.s);
	assert_non_null(b);
	return b;
}

static void has_text(const struct imported *im, const char *needle)
{
	if (!strstr(im->text.s, needle))
		print_error("missing \"%s\" in:\n%s", needle, im->text.s);
	assert_non_null(strstr(im->text.s, needle));
}

static void slaves_are(const struct desired_bond *b, const char *want)
{
	char got[256] = "";
	for (size_t i = 0; i < b->n_slaves; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
			 b->slaves[i].name);
	assert_string_equal(got, want);
}

static void addr_is(const struct desired_bond *b, size_t i, const char *want)
{
	char text[INET6_ADDRSTRLEN], got[64];
	assert_true(i < b->n_addrs);
	inet_ntop(b->addrs[i].family, b->addrs[i].addr, text, sizeof(text));
	snprintf(got, sizeof(got), "%s/%u", text, b->addrs[i].prefixlen);
	assert_string_equal(got, want);
}

static uint32_t opt(const struct desired_bond *b, enum bond_option_id id)
{
	assert_true(bond_settings_has(&b->opts, id));
	return b->opts.val[id];
}

/* ---- ifcfg ------------------------------------------------------------- */

static void ifcfg_bonding_opts(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg, FILES(F("/x/ifcfg-bond0",
				  "DEVICE=bond0\nTYPE=Bond\nBONDING_MASTER=yes\n"
				  "BONDING_OPTS=\"mode=4 miimon=100 lacp_rate=1 "
				  "xmit_hash_policy=layer3+4 ad_select=bandwidth\"\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_8023AD);
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(opt(b, OPT_AD_LACP_RATE), 1);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 1);
	assert_int_equal(opt(b, OPT_AD_SELECT), 1);
	done(&im);
}

/* ifup-eth enslaves in the order of its glob over ifcfg-*: file names. */
static void ifcfg_slave_order_is_file_order(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-eth2", "DEVICE=eth2\nMASTER=bond0\nSLAVE=yes\n"),
		  F("ifcfg-eth10", "DEVICE=eth10\nMASTER='bond0'\nSLAVE=yes\n"),
		  F("ifcfg-bond0", "DEVICE=bond0\nBONDING_OPTS='miimon=100'\n"),
		  F("ifcfg-eth1", "DEVICE=eth1\nMASTER=\"bond0\"\nSLAVE=yes\n"),
		  F("ifcfg-eth3", "DEVICE=eth3\nMASTER=bond0\nSLAVE=no\n"),
		  F("ifcfg-eth4", "DEVICE=eth4\nMASTER=bond9\nSLAVE=yes\n")),
	    6, &im);
	slaves_are(bond(&im, "bond0"), "eth1 eth10 eth2");
	has_text(&im, "# Slave order: ifcfg has none; this is ifup-eth's, by ifcfg file name.\n");
	has_text(&im, "# ifcfg-eth4: a slave of bond9, which no ifcfg file given defines");
	done(&im);
}

static void ifcfg_addresses(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\n"
				   "IPADDR=192.168.1.5\nPREFIX=24\n"
				   "IPADDR0=192.168.2.5\nNETMASK0=255.255.255.128\n"
				   "IPADDR2=10.1.1.1\nPREFIX2=8\n"
				   "IPADDR5=10.9.9.9\nPREFIX5=8\n" /* after a gap: not read */
				   "IPV6INIT=yes\nIPV6ADDR=fd00::5\n"
				   "IPV6ADDR_SECONDARIES=\"fd00:1::5/48 fd00:2::5/64\"\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(b->n_addrs, 6);
	addr_is(b, 0, "192.168.1.5/24");
	addr_is(b, 1, "192.168.2.5/25");
	addr_is(b, 2, "10.1.1.1/8");
	addr_is(b, 3, "fd00::5/64");
	addr_is(b, 4, "fd00:1::5/48");
	addr_is(b, 5, "fd00:2::5/64");
	done(&im);

	/* No PREFIX nor NETMASK: the class's, as ipcalc gives it; IPv6
	 * without IPV6INIT=yes is not added by ifup-ipv6. */
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\nIPADDR=172.16.3.4\n"
				   "IPV6ADDR=fd00::5/64\n")),
	    1, &im);
	b = bond(&im, "bond0");
	assert_int_equal(b->n_addrs, 1);
	addr_is(b, 0, "172.16.3.4/16");
	has_text(&im, "IPADDR=172.16.3.4 (ifcfg-bond0) has no PREFIX or NETMASK");
	has_text(&im, "# not carried over: IPV6ADDR (ifcfg-bond0): IPV6INIT is not yes");
	done(&im);
}

static void ifcfg_mtu(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\nMTU=9000\n"),
		  F("ifcfg-bond1", "DEVICE=bond1\nTYPE=Bond\n"),
		  F("ifcfg-e1", "DEVICE=e1\nMASTER=bond0\nSLAVE=yes\nMTU=1500\n")),
	    3, &im);
	assert_int_equal(bond(&im, "bond0")->mtu, 9000);
	/* No MTU: the kernel's 1500, not bondd's 9000. */
	assert_int_equal(bond(&im, "bond1")->mtu, 1500);
	has_text(&im, "# No MTU in the source: 1500, the kernel's default (bondd's is 9000).\n");
	has_text(&im, "# MTU=1500 of slave e1 (ifcfg-e1) is not carried over");
	done(&im);
}

static void ifcfg_arp_monitor(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nBONDING_OPTS=\"mode=active-backup "
				   "arp_interval=1000 arp_ip_target=+10.0.0.1,+10.0.0.2 "
				   "arp_validate=all\"\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_ARP_INTERVAL), 1000);
	assert_int_equal(b->opts.n_arp_ip_target, 2);
	assert_int_equal(opt(b, OPT_ARP_VALIDATE), 3);
	done(&im);
}

/* What bondd refuses becomes a comment with the reason; what it has no
 * place for becomes a note. */
static void ifcfg_notes_and_refusals(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\nBOOTPROTO=dhcp\nGATEWAY=10.0.0.1\n"
				   "BONDING_OPTS=\"mode=active-backup miimon=100 lacp_rate=1 "
				   "max_bonds=2 updelay=150\"\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_false(bond_settings_has(&b->opts, OPT_AD_LACP_RATE));
	has_text(&im, "# bondd would refuse the next line: lacp_rate does not apply to mode "
		      "active-backup\n# lacp_rate = 1\n");
	/* taken by the kernel, rounded down: kept, with bondd's warning */
	has_text(&im, "# bondd warns about the next line: updelay: 150 is not a multiple of "
		      "miimon (100): the kernel rounds it down to 100; write 100\nupdelay = 150\n");
	has_text(&im, "# not carried over: max_bonds=2 (BONDING_OPTS in ifcfg-bond0): not a "
		      "bonding option bondd manages");
	has_text(&im, "# not carried over: BOOTPROTO=dhcp (ifcfg-bond0)");
	has_text(&im, "# not carried over: GATEWAY=10.0.0.1 (ifcfg-bond0)");
	done(&im);
}

/* A slave found by HWADDR at run time: named after its file, noted. */
static void ifcfg_slave_by_hwaddr(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\n"),
		  F("ifcfg-eno1", "HWADDR=52:54:00:12:34:56\nMASTER=bond0\nSLAVE=yes\n")),
	    2, &im);
	slaves_are(bond(&im, "bond0"), "eno1");
	has_text(&im, "# ifcfg-eno1 has no DEVICE: initscripts finds the NIC by "
		      "HWADDR=52:54:00:12:34:56 when it runs; the name eno1 is taken from the "
		      "file name: check it");
	done(&im);
}

/* DEVICE missing: the name after "ifcfg-"; backups are not read. */
static void ifcfg_names_and_ignored_files(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("d/ifcfg-bond3", "TYPE=Bond\n"), F("d/ifcfg-bond4.bak", "TYPE=Bond\n"),
		  F("d/ifcfg-bond5~", "TYPE=Bond\n"), F("d/route-bond3", "ADDRESS0=1.2.3.4\n"),
		  F("d/ifcfg-lo", "DEVICE=lo\n")),
	    5, &im);
	assert_int_equal(im.d.n_bonds, 1);
	bond(&im, "bond3");
	has_text(&im, "# d/ifcfg-bond4.bak: not an ifcfg-NAME file initscripts reads; skipped");
	done(&im);
}

/* ---- systemd-networkd ------------------------------------------------------ */

static void networkd_bond_settings(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("10-bond0.netdev",
		    "[NetDev]\nName=bond0\nKind=bond\nMTUBytes=9000\n\n[Bond]\nMode=802.3ad\n"
		    "TransmitHashPolicy=layer3+4\nLACPTransmitRate=fast\nMIIMonitorSec=1s\n"
		    "UpDelaySec=2s\nDownDelaySec=8s\nAdSelect=count\nMinLinks=1\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_8023AD);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 1);
	assert_int_equal(opt(b, OPT_AD_LACP_RATE), 1);
	assert_int_equal(opt(b, OPT_MIIMON), 1000);
	assert_int_equal(opt(b, OPT_UPDELAY), 2000);
	assert_int_equal(opt(b, OPT_DOWNDELAY), 8000);
	assert_int_equal(opt(b, OPT_AD_SELECT), 2);
	assert_int_equal(opt(b, OPT_MIN_LINKS), 1);
	assert_int_equal(b->mtu, 9000);
	done(&im);
}

/*
 * systemd-networkd's own bond tests (test/test-network): ARPMissedMax=
 * beside MIIMonitorSec= is kept, as the kernel keeps it; drop-in
 * directories are read in networkd's order (a name in an earlier
 * directory hides the same name in a later one; an empty drop-in masks);
 * [Link] MACAddress= is mac_address; a slave's ActiveSlave=, DHCP=,
 * Address=, Gateway= each get a note.
 */
static void networkd_dropins_mac_and_notes(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("etc/25-bond.network.d/20-mac.conf", "[Link]\nMACAddress=02:00:00:00:00:02\n"),
		  F("etc/10-bond.netdev", "[NetDev]\nName=bond99\nKind=bond\n[Bond]\n"
					  "Mode=active-backup\nMIIMonitorSec=100ms\n"
					  "ARPMissedMax=10\n"),
		  F("etc/10-bond.netdev.d/50-mtu.conf", "[NetDev]\nMTUBytes=9000\n"),
		  F("etc/25-bond.network", "[Match]\nName=bond99\n[Network]\n"
					   "Address=192.168.10.1/24\n"),
		  F("etc/25-bond.network.d/30-addr.conf", ""),
		  F("lib/25-bond.network.d/10-mac.conf", "[Link]\nMACAddress=02:00:00:00:00:01\n"),
		  F("lib/25-bond.network.d/30-addr.conf", "[Network]\nAddress=192.168.20.1/24\n"),
		  F("etc/30-slaves.network", "[Match]\nName=test1\n[Network]\n"
					     "Bond=bond99\nActiveSlave=no\nDHCP=yes\n"),
		  F("etc/31-active.network", "[Match]\nName=dummy98\n[Network]\n"
					     "Bond=bond99\nActiveSlave=yes\n"),
		  F("etc/30-slaves.network.d/10-gw.conf", "[Network]\nGateway=10.0.0.1\n"
							 "Address=10.0.0.5/24\n"),
		  F("etc/99-lost.network.d/x.conf", "[Link]\nMTUBytes=1500\n")),
	    11, &im);
	const struct desired_bond *b = bond(&im, "bond99");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_int_equal(opt(b, OPT_MISSED_MAX), 10);
	has_text(&im, "# bondd warns about the next line: arp_missed_max has no effect without "
		      "arp_interval");
	/* 20-mac.conf comes after 10-mac.conf whatever the directory */
	assert_true(b->has_mac);
	assert_int_equal(b->mac[5], 2);
	assert_int_equal(b->mtu, 9000);
	/* etc's empty 30-addr.conf masks lib's */
	assert_int_equal(b->n_addrs, 1);
	addr_is(b, 0, "192.168.10.1/24");
	/* ActiveSlave=yes: listed first, so the kernel makes it active */
	slaves_are(b, "dummy98 test1");
	has_text(&im, "# [Network] ActiveSlave=yes (etc/31-active.network:5): bondd has no "
		      "active_slave; the slave is listed first instead");
	has_text(&im, "# not carried over: [Network] DHCP=yes (etc/30-slaves.network:6)");
	has_text(&im, "# not carried over: [Network] Gateway=10.0.0.1 "
		      "(etc/30-slaves.network.d/10-gw.conf:2)");
	has_text(&im, "# not carried over: [Network] Address=10.0.0.5/24 "
		      "(etc/30-slaves.network.d/10-gw.conf:3)");
	has_text(&im, "# etc/99-lost.network.d/x.conf: a drop-in of 99-lost.network, which is not "
		      "given; skipped");
	done(&im);
}

/* A bare number in a *Sec= setting is seconds; booleans become 1/0. */
static void networkd_units(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("b.netdev", "[NetDev]\nName=bond0\nKind=bond\n[Bond]\nMode=balance-alb\n"
				"MIIMonitorSec=1\nLearnPacketIntervalSec=3s\n"
				"DynamicTransmitLoadBalancing=no\nAllSlavesActive=yes\n"
				"Bogus=1\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MIIMON), 1000);
	assert_int_equal(opt(b, OPT_LP_INTERVAL), 3);
	assert_int_equal(opt(b, OPT_TLB_DYNAMIC_LB), 0);
	assert_int_equal(opt(b, OPT_ALL_SLAVES_ACTIVE), 1);
	has_text(&im, "# not carried over: [Bond] Bogus=1 (b.netdev:10)");
	done(&im);
}

/* networkd applies to a link the first .network file (by file name) that
 * fits it; a pattern names no link we can know. */
static void networkd_slaves(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("30-ports.network", "[Match]\nName=e3 e1 e2 eth*\n[Network]\nBond=bond0\n"),
		  F("10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\n[Bond]\nMode=balance-rr\n"),
		  F("20-e2.network", "[Match]\nName=e2\n[Network]\nDHCP=yes\n"),
		  F("40-more.network", "[Match]\nName=e4\n[Network]\nBond=bond0\n"),
		  F("50-none.network", "[Match]\nMACAddress=00:11:22:33:44:55\n[Network]\n"
				       "Bond=bond0\n")),
	    5, &im);
	slaves_are(bond(&im, "bond0"), "e3 e1 e4 m:001122334455");
	has_text(&im, "# not carried over: e2 (30-ports.network): networkd uses 20-e2.network "
		      "for it, which comes first");
	has_text(&im, "# not carried over: Name=eth* (30-ports.network) is a pattern");
	has_text(&im, "slaves = e3 e1 e4 mac:00:11:22:33:44:55\n");
	has_text(&im, "# 50-none.network: [Match] MACAddress= is the current address; bondd "
		      "matches mac: on the permanent one");
	has_text(&im, "# Slave order: networkd keeps none; by .network file and Name=: check it.\n");
	done(&im);
}

/* Ports named by hardware ([Match] PermanentMACAddress=, Path=,
 * MACAddress=) become mac: and path: entries, which survive renames; a
 * value bondd cannot match falls back to Name=, and says so. */
static void networkd_match_by_hardware(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\n[Bond]\n"
				       "Mode=active-backup\n"),
		  F("20-a.network", "[Match]\nName=ens3f0\nPermanentMACAddress=02-00-00-00-AA-01\n"
				    "[Network]\nBond=bond0\nPrimarySlave=yes\n"),
		  F("21-b.network", "[Match]\nPath=pci-0000:3b:00.1\n[Network]\nBond=bond0\n"),
		  F("22-c.network", "[Match]\nName=ens9\nPath=pci-0000:3c:*\n[Network]\n"
				    "Bond=bond0\n"),
		  F("23-d.network", "[Match]\nName=ens10 ens11\nPermanentMACAddress=02:00:00:00:aa:0a "
				    "02:00:00:00:aa:0b\n[Network]\nBond=bond0\n"),
		  F("24-e.network", "[Match]\nPermanentMACAddress=02:00:00:00:aa:0c 02:00:00:00:aa:0d\n"
				    "[Network]\nBond=bond0\n")),
	    6, &im);
	has_text(&im, "slaves = mac:02:00:00:00:AA:01 path:pci-0000:3b:00.1 ens9 ens10 ens11 "
		      "mac:02:00:00:00:aa:0c mac:02:00:00:00:aa:0d\n");
	has_text(&im, "primary = mac:02:00:00:00:AA:01\n");
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(b->primary_slave, 1);
	has_text(&im, "# not carried over: path pci-0000:3c:* (22-c.network): a pattern");
	has_text(&im, "# 22-c.network: fell back to [Match] Name= for what Path= could not name");
	has_text(&im, "# 23-d.network: [Match] PermanentMACAddress= with several values and "
		      "Name= cannot be paired into ports; the slaves are named by Name= (fell back "
		      "to names, which a rename loses)");
	done(&im);
}

static void networkd_bond_network(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\nMTUBytes=9000\n"
				       "[Bond]\nMode=active-backup\nMIIMonitorSec=100ms\n"),
		  F("20-e1.network", "[Match]\nName=e1\n[Network]\nBond=bond0\nPrimarySlave=yes\n"
				     "[Link]\nMTUBytes=1500\n"),
		  F("21-e2.network", "[Match]\nName=e2\n[Network]\nBond=bond0\n"),
		  F("30-bond0.network", "[Match]\nName=bond*\n[Network]\nAddress=10.0.0.1/24\n"
					"Address=10.0.1.1\nGateway=10.0.0.254\n[Address]\n"
					"Address=fd00::1/64\n[Link]\nMTUBytes=4K\n")),
	    4, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	slaves_are(b, "e1 e2");
	assert_string_equal(b->opts.primary, "e1");
	/* The .network's [Link] MTUBytes= is applied after the .netdev's. */
	assert_int_equal(b->mtu, 4096);
	assert_int_equal(b->n_addrs, 2);
	addr_is(b, 0, "10.0.0.1/24");
	addr_is(b, 1, "fd00::1/64");
	has_text(&im, "# not carried over: Address=10.0.1.1 (30-bond0.network:5): no prefix");
	has_text(&im, "# not carried over: [Network] Gateway=10.0.0.254 (30-bond0.network:6)");
	has_text(&im, "# [Link] MTUBytes=1500 of e1 (20-e1.network) is not carried over");
	done(&im);
}

/* Same name in two directories: the first given wins; empty masks. */
static void networkd_shadow_and_mask(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("/etc/systemd/network/10-b.netdev", "[NetDev]\nName=bond0\nKind=bond\n"),
		  F("/usr/lib/systemd/network/10-b.netdev", "[NetDev]\nName=bond7\nKind=bond\n"),
		  {"/etc/systemd/network/20-c.netdev", "", 0},
		  F("/usr/lib/systemd/network/20-c.netdev", "[NetDev]\nName=bond8\nKind=bond\n"),
		  F("/etc/systemd/network/30-v.netdev", "[NetDev]\nName=v1\nKind=vlan\n")),
	    5, &im);
	assert_int_equal(im.d.n_bonds, 1);
	bond(&im, "bond0");
	has_text(&im, "# /usr/lib/systemd/network/10-b.netdev: shadowed by "
		      "/etc/systemd/network/10-b.netdev");
	has_text(&im, "# /etc/systemd/network/20-c.netdev: empty, so it masks");
	done(&im);
}

/* ---- NetworkManager ------------------------------------------------------ */

static const char nm_bond[] =
	"[connection]\nid=Bond connection 1\nuuid=5f1b7a8e-8c2a-4f4e-9c9d-0f3c2b1a0e11\n"
	"type=bond\ninterface-name=bond0\n\n[bond]\nmode=active-backup\nmiimon=100\n"
	"primary=ens4\nfail_over_mac=active\n\n[ethernet]\nmtu=9000\n\n[ipv4]\n"
	"address2=10.0.1.5/24\naddress1=10.0.0.5/24,10.0.0.1\nmethod=manual\n\n[ipv6]\n"
	"address1=fd00::5/64\nmethod=manual\n";

static void nm_bond_and_ports(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("c/ports-ens5.nmconnection", "[connection]\nid=p5\ntype=ethernet\n"
						  "interface-name=ens5\ncontroller=bond0\n"
						  "port-type=bond\n"),
		  F("c/bond0.nmconnection", nm_bond),
		  F("c/ports-ens4.nmconnection", "[connection]\nid=p4\ntype=ethernet\n"
						  "interface-name=ens4\n"
						  "master=5f1b7a8e-8c2a-4f4e-9c9d-0f3c2b1a0e11\n"
						  "slave-type=bond\n"),
		  F("c/ports-ens6.nmconnection", "[connection]\nid=p6\ntype=ethernet\n"
						  "interface-name=ens6\nmaster=Bond connection 1\n"
						  "slave-type=bond\n[ethernet]\nmtu=1500\n"),
		  F("c/wifi.nmconnection", "[connection]\nid=w\ntype=wifi\n"),
		  F("c/junk", "not a keyfile\n")),
	    6, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(opt(b, OPT_FAIL_OVER_MAC), 1);
	assert_string_equal(b->opts.primary, "ens4");
	slaves_are(b, "ens4 ens5 ens6");
	assert_int_equal(b->mtu, 9000);
	/* address1 before address2, IPv4 before IPv6; the gateway is noted. */
	assert_int_equal(b->n_addrs, 3);
	addr_is(b, 0, "10.0.0.5/24");
	addr_is(b, 1, "10.0.1.5/24");
	addr_is(b, 2, "fd00::5/64");
	has_text(&im, "# not carried over: gateway 10.0.0.1 (c/bond0.nmconnection:18)");
	has_text(&im, "# mtu=1500 of port ens6 (c/ports-ens6.nmconnection) is not carried over");
	has_text(&im, "# c/junk: no [connection] type=: not a NetworkManager keyfile; skipped");
	done(&im);
}

/* NetworkManager applies miimon 100 unless arp_interval is set. */
/* Ports by ethernet.mac-address (the permanent address) or one
 * match.path become mac: and path: entries; otherwise the name, said. */
static void nm_ports_by_hardware(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("bond0.nmconnection", "[connection]\nid=bond0\ntype=bond\n"
					  "interface-name=bond0\n[bond]\nmode=balance-rr\n"),
		  F("p1.nmconnection", "[connection]\nid=p1\ntype=ethernet\ninterface-name=ens1\n"
				       "controller=bond0\nport-type=bond\n[ethernet]\n"
				       "mac-address=02:00:00:00:AA:01\n"),
		  F("p2.nmconnection", "[connection]\nid=p2\ntype=ethernet\ncontroller=bond0\n"
				       "port-type=bond\n[match]\npath=pci-0000:3b:00.1;\n"),
		  F("p3.nmconnection", "[connection]\nid=p3\ntype=ethernet\ninterface-name=ens3\n"
				       "controller=bond0\nport-type=bond\n[match]\n"
				       "path=pci-0000:3b:00.2;pci-0000:3b:00.3;\n"),
		  F("p4.nmconnection", "[connection]\nid=p4\ntype=ethernet\ncontroller=bond0\n"
				       "port-type=bond\n")),
	    5, &im);
	has_text(&im, "slaves = mac:02:00:00:00:AA:01 path:pci-0000:3b:00.1 ens3\n");
	has_text(&im, "# not carried over: match.path=pci-0000:3b:00.2;pci-0000:3b:00.3; "
		      "(p3.nmconnection): several paths, one port");
	has_text(&im, "# p3.nmconnection: fell back to interface-name=ens3, which a rename loses");
	has_text(&im, "# not carried over: the port in p4.nmconnection has no interface-name, "
		      "mac-address nor match.path");
	done(&im);
}

static void nm_miimon_default(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("a.nmconnection", "[connection]\nid=a\ntype=bond\ninterface-name=bond0\n"
				      "[bond]\nmode=balance-rr\n"),
		  F("b.nmconnection", "[connection]\nid=b\ntype=bond\ninterface-name=bond1\n"
				      "[bond]\nmode=active-backup\narp_interval=500\n"
				      "arp_ip_target=10.0.0.1,10.0.0.2\n")),
	    2, &im);
	assert_int_equal(opt(bond(&im, "bond0"), OPT_MIIMON), 100);
	has_text(&im, "# miimon = 100 is NetworkManager's default");
	const struct desired_bond *b = bond(&im, "bond1");
	assert_false(bond_settings_has(&b->opts, OPT_MIIMON) && b->opts.val[OPT_MIIMON] > 0);
	assert_int_equal(opt(b, OPT_ARP_INTERVAL), 500);
	assert_int_equal(b->opts.n_arp_ip_target, 2);
	/* No [ethernet] mtu=: the kernel's 1500. */
	assert_int_equal(b->mtu, 1500);
	done(&im);
}

static void nm_dhcp_and_escapes(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("a.nmconnection", "[connection]\nid=my\\sbond\ntype=bond\n"
				      "interface-name=bond0\nautoconnect=false\n[ipv4]\nmethod=auto\n"),
		  F("p.nmconnection", "[connection]\nid=p\ntype=ethernet\ninterface-name=e1\n"
				      "controller=my bond\nport-type=bond\n")),
	    2, &im);
	slaves_are(bond(&im, "bond0"), "e1");
	has_text(&im, "# not carried over: addresses from DHCP or autoconfiguration");
	has_text(&im, "# autoconnect=false (a.nmconnection:5): NetworkManager does not bring "
		      "this bond up at boot");
	done(&im);
}

/* ---- teamd ------------------------------------------------------------------ */

static void teamd_lacp(void **state)
{
	(void)state;
	struct imported im;
	run(import_teamd,
	    FILES(F("t.conf", "{\"device\": \"team0\", \"runner\": {\"name\": \"lacp\", "
			      "\"active\": false, \"fast_rate\": true, \"sys_prio\": 100, "
			      "\"min_ports\": 2, \"agg_select_policy\": \"bandwidth\", "
			      "\"tx_hash\": [\"eth\", \"ipv4\"]}, "
			      "\"ports\": {\"eth3\": {}, \"eth1\": {\"lacp_prio\": 5}, "
			      "\"eth2\": {}}}")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "team0");
	assert_int_equal(opt(b, OPT_MODE), MODE_8023AD);
	assert_int_equal(opt(b, OPT_AD_LACP_ACTIVE), 0);
	assert_int_equal(opt(b, OPT_AD_LACP_RATE), 1);
	assert_int_equal(opt(b, OPT_AD_ACTOR_SYS_PRIO), 100);
	assert_int_equal(opt(b, OPT_MIN_LINKS), 2);
	assert_int_equal(opt(b, OPT_AD_SELECT), 1);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 2); /* layer2+3 */
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	/* The order of "ports" in the file. */
	slaves_are(b, "eth3 eth1 eth2");
	assert_int_equal(b->mtu, 1500);
	has_text(&im, "# not carried over: sticky, lacp_prio, lacp_key or link_watch of port eth1");
	has_text(&im, "teamd names ports by name only: a rename loses them; bondd can name "
		      "them by mac: or path: (bondd.conf(5)).\n");
	done(&im);
}

static void teamd_activebackup(void **state)
{
	(void)state;
	struct imported im;
	run(import_teamd,
	    FILES(F("t.conf", "{\"device\": \"team1\", \"runner\": {\"name\": "
			      "\"activebackup\", \"hwaddr_policy\": \"only_active\"}, "
			      "\"link_watch\": {\"name\": \"ethtool\", \"delay_up\": 250, "
			      "\"delay_down\": 100}, \"notify_peers\": {\"count\": 3}, "
			      "\"ports\": {\"e2\": {\"prio\": 100, \"queue_id\": 2}, "
			      "\"e1\": {\"prio\": -5}}}")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "team1");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_int_equal(opt(b, OPT_FAIL_OVER_MAC), 2);
	assert_int_equal(opt(b, OPT_UPDELAY), 300); /* rounded up to a multiple of 100 */
	assert_int_equal(opt(b, OPT_DOWNDELAY), 100);
	assert_int_equal(opt(b, OPT_NUM_PEER_NOTIF), 3);
	slaves_are(b, "e2 e1");
	assert_true(b->slaves[0].has_prio);
	assert_int_equal(b->slaves[0].prio, 100);
	assert_int_equal(b->slaves[1].prio, -5);
	assert_true(b->slaves[0].has_queue_id);
	assert_int_equal(b->slaves[0].queue_id, 2);
	has_text(&im, "# link_watch.delay_up 250 (t.conf) is updelay = 300: a multiple of miimon");
	done(&im);
}

static void teamd_arp_ping_and_others(void **state)
{
	(void)state;
	struct imported im;
	run(import_teamd,
	    FILES(F("a.json", "{\"device\": \"team2\", \"runner\": {\"name\": "
			      "\"activebackup\"}, \"link_watch\": [{\"name\": \"arp_ping\", "
			      "\"interval\": 100, \"target_host\": \"192.168.23.1\", "
			      "\"missed_max\": 5, \"validate_active\": true}, {\"name\": "
			      "\"ethtool\"}]}"),
		  F("b.json", "{\"device\": \"team3\", \"runner\": {\"name\": \"random\"}}"),
		  F("c.json", "{\"runner\": {}}"), F("d.json", "{\"device\": [1,"),
		  F("e.json", "{\"device\": \"team4\", \"runner\": {\"name\": "
			      "\"loadbalance\", \"tx_hash\": [\"l4\"], "
			      "\"tx_balancer\": {\"name\": \"basic\"}}}")),
	    5, &im);
	const struct desired_bond *b = bond(&im, "team2");
	assert_int_equal(opt(b, OPT_ARP_INTERVAL), 100);
	assert_int_equal(b->opts.n_arp_ip_target, 1);
	assert_int_equal(opt(b, OPT_MISSED_MAX), 5);
	assert_int_equal(opt(b, OPT_ARP_VALIDATE), 1);
	has_text(&im, "# not carried over: link watch ethtool (a.json): the bond runs one link "
		      "monitor, the ARP/NS one here");
	assert_int_equal(opt(bond(&im, "team3"), OPT_MODE), MODE_BALANCE_RR);
	has_text(&im, "# runner random (b.json) has no bonding mode: balance-rr instead");
	has_text(&im, "# c.json: no \"device\": not a teamd configuration; skipped");
	has_text(&im, "# d.json: not JSON (");
	b = bond(&im, "team4");
	assert_int_equal(opt(b, OPT_MODE), MODE_BALANCE_XOR);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 1);
	has_text(&im, "# not carried over: runner.tx_balancer (e.json)");
	done(&im);
}

/* The JSON reader on its own: what teamd files hold, and what is refused. */
static void json_reader(void **state)
{
	(void)state;
	static const char ok[] = " {\"a\": [1, -2.5e1, true, false, null], \"b\": "
				 "\"x\\u00e9\\n\\\"\", \"a\": {}} ";
	struct json v;
	char err[96];

	assert_int_equal(json_parse(ok, sizeof(ok) - 1, &v, err, sizeof(err)), 0);
	assert_int_equal(v.type, JSON_OBJ);
	assert_int_equal(v.n, 3);
	assert_int_equal(json_get(&v, "a")->type, JSON_OBJ); /* the last one */
	assert_string_equal(json_get(&v, "b")->str, "x\xc3\xa9\n\"");
	assert_true(v.items[0].items[1].num == -25.0);
	json_free(&v);

	static const char *const bad[] = {"", "{", "[1,]", "{\"a\" 1}", "\"\\x\"", "01x",
					  "[1] 2", "{\"a\":\"\n\"}", "tru", "\"\\u12\""};
	for (size_t i = 0; i < N(bad); i++) {
		assert_int_equal(json_parse(bad[i], strlen(bad[i]), &v, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, " at byte "));
	}
	/* Nesting is bounded. */
	char deep[200];
	memset(deep, '[', sizeof(deep));
	assert_int_equal(json_parse(deep, sizeof(deep), &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nested too deep"));
}

/* ---- the renderer and hostile input ------------------------------------------ */

static void render_nothing_found(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm, NULL, 0, &im);
	assert_int_equal(im.d.n_bonds, 0);
	has_text(&im, "# No bond found in the source.\n");
	done(&im);
}

/* Names and values that would change the meaning of the output never
 * reach it as lines of their own. */
static void hostile_values(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-x", "DEVICE=\"bond0]\nmode = 3\"\nTYPE=Bond\n"),
		  F("ifcfg-bond1", "DEVICE=bond1\nTYPE=Bond\nBONDING_OPTS=\"miimon=1#0 "
				   "primary=e1\"\nMTU=99999\n"),
		  F("ifcfg-e1", "DEVICE='e1 e2'\nMASTER=bond1\nSLAVE=yes\n"),
		  F("ifcfg-bond2", "DEVICE=averyveryverylongbondname\nTYPE=Bond\n")),
	    4, &im);
	/* A quote left open is a line skipped, as the shell would refuse the
	 * file: ifcfg-x defines a bond named after its file. */
	assert_int_equal(im.d.n_bonds, 2);
	bond(&im, "x");
	has_text(&im, "# ifcfg-x: 2 lines that are not VAR=value were skipped");
	const struct desired_bond *b = bond(&im, "bond1");
	assert_int_equal(b->n_slaves, 0);
	has_text(&im, "# not carried over: a slave named \"e1 e2\" (ifcfg-e1): not a usable "
		      "interface name");
	has_text(&im, "# not carried over: a bond named \"averyveryverylongbondname\"");
	assert_false(bond_settings_has(&b->opts, OPT_MIIMON));
	assert_int_equal(b->mtu, 1500);
	has_text(&im, "# not carried over: MTU=99999 (ifcfg-bond1): not an MTU");
	done(&im);
}

static void netmask_prefix(void **state)
{
	(void)state;
	assert_int_equal(import_netmask_prefix("255.255.255.0"), 24);
	assert_int_equal(import_netmask_prefix("255.255.255.255"), 32);
	assert_int_equal(import_netmask_prefix("0.0.0.0"), 0);
	assert_int_equal(import_netmask_prefix("255.0.255.0"), -1);
	assert_int_equal(import_netmask_prefix("255.255.255.1"), -1);
	assert_int_equal(import_netmask_prefix("24"), -1);
}

/* ---- rules from the issue-24 corpus: each written from the format's docs ---- */

/* VLAN=yes (by name bond0.123 or PHYSDEV=) is never a bond, whatever
 * BONDING_OPTS it carries; VLANs and a bridge on the bond are named. */
static void ifcfg_vlan_is_not_a_bond(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\nUUID=5f1c0f2e-0000-4000-8000-000000000001\n"
				   "BONDING_OPTS=\"mode=1 miimon=100\"\nBRIDGE=br0\n"),
		  F("ifcfg-bond0.123", "DEVICE=bond0.123\nVLAN=yes\nBONDING_OPTS=\"mode=1 "
				       "miimon=100\"\nIPADDR=10.9.0.1\nPREFIX=24\n"),
		  F("ifcfg-vlan200", "DEVICE=vlan200\nTYPE=Vlan\nPHYSDEV=bond0\nVLAN_ID=200\n"),
		  F("ifcfg-vlan300", "DEVICE=vlan300\nVLAN=yes\n"
				     "PHYSDEV=5f1c0f2e-0000-4000-8000-000000000001\n"),
		  F("ifcfg-eth1", "DEVICE=eth1\nMASTER=bond0\nSLAVE=yes\n")),
	    5, &im);
	assert_int_equal(im.d.n_bonds, 1);
	assert_null(desired_find_bond(&im.d, "bond0.123"));
	slaves_are(bond(&im, "bond0"), "eth1");
	has_text(&im, "# not carried over: VLAN bond0.123 on bond0 (ifcfg-bond0.123): bondd makes "
		      "the bond only; keep the VLAN in the tool that made it (its BONDING_OPTS "
		      "are not the bond's and are ignored)");
	has_text(&im, "# not carried over: VLAN vlan200 on bond0 (ifcfg-vlan200)");
	has_text(&im, "# not carried over: VLAN vlan300 on bond0 (ifcfg-vlan300)");
	has_text(&im, "# ifcfg-bond0.123: a VLAN (VLAN=yes or TYPE=Vlan), not a bond");
	has_text(&im, "# not carried over: bond0 is a port of bridge br0 (BRIDGE= in ifcfg-bond0)");
	assert_null(strstr(im.text.s, "[bond0.123]"));
	done(&im);
}

/* MASTER= without SLAVE=yes: NetworkManager's ifcfg reader enslaves it
 * (and takes MASTER_UUID=); an explicit SLAVE=no is not a slave. */
static void ifcfg_master_without_slave(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifcfg,
	    FILES(F("ifcfg-bond0", "DEVICE=bond0\nTYPE=Bond\nUUID=aa-bb\nBONDING_OPTS=miimon=100\n"),
		  F("ifcfg-eth1", "DEVICE=eth1\nMASTER=bond0\n"),
		  F("ifcfg-eth2", "DEVICE=eth2\nMASTER_UUID=aa-bb\nSLAVE=yes\n"),
		  F("ifcfg-eth3", "DEVICE=eth3\nMASTER=bond0\nSLAVE=no\n")),
	    4, &im);
	slaves_are(bond(&im, "bond0"), "eth1 eth2");
	has_text(&im, "# ifcfg-eth1 has MASTER=bond0 but no SLAVE=yes: NetworkManager enslaves it "
		      "(nms-ifcfg-rh-reader.c, check_if_bond_slave), initscripts' ifup-eth does "
		      "not; it is a slave here: check it");
	has_text(&im, "# not carried over: ifcfg-eth3 has MASTER=bond0 but SLAVE=no");
	assert_null(strstr(im.text.s, "which no ifcfg file given defines"));
	done(&im);
}

/* nm-keyfile: address, addresses, bare, 0 or N; read in that order. */
static void nm_address_keys(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("b.nmconnection", "[connection]\nid=b\ntype=bond\ninterface-name=bond0\n"
				      "[bond]\nmode=active-backup\nmiimon=100\n"
				      "[ipv4]\nmethod=manual\naddress1=10.0.3.10/24,10.0.3.1\n"
				      "address0=10.0.2.10/24\naddresses=10.0.1.10/24\n"
				      "address2=10.0.4.10\naddress01=10.0.5.10/24\n"
				      "address3=10.0.6.10;24;\n"
				      "[ipv6]\nmethod=manual\naddress=fd00:1::10/64\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(b->n_addrs, 6);
	addr_is(b, 0, "10.0.1.10/24");
	addr_is(b, 1, "10.0.2.10/24");
	addr_is(b, 2, "10.0.3.10/24");
	addr_is(b, 3, "10.0.4.10/24");
	addr_is(b, 4, "10.0.6.10/24");
	addr_is(b, 5, "fd00:1::10/64");
	has_text(&im, "# not carried over: gateway 10.0.3.1 (b.nmconnection:");
	has_text(&im, "# 10.0.4.10 (b.nmconnection:");
	has_text(&im, "has no prefix length: /24, NetworkManager's default");
	has_text(&im, "# not carried over: [ipv4] address01=10.0.5.10/24");
	done(&im);
}

/* VLANs whose parent is the bond (by name or by its connection's UUID),
 * and a bridge the bond is a port of, are named. */
static void nm_stacked_devices(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("b.nmconnection", "[connection]\nid=bond-b\nuuid=1111-2222\ntype=bond\n"
				      "interface-name=bond0\ncontroller=br0\nport-type=bridge\n"
				      "[bond]\nmode=802.3ad\nmiimon=100\n"),
		  F("v1.nmconnection", "[connection]\nid=v1\ntype=vlan\ninterface-name=bond0.10\n"
				       "[vlan]\nid=10\nparent=bond0\n"),
		  F("v2.nmconnection", "[connection]\nid=v2\ntype=vlan\ninterface-name=vl20\n"
				       "[vlan]\nid=20\nparent=1111-2222\n"),
		  F("v3.nmconnection", "[connection]\nid=v3\ntype=vlan\ninterface-name=eth9.30\n"
				       "[vlan]\nid=30\nparent=eth9\n")),
	    4, &im);
	bond(&im, "bond0");
	has_text(&im, "# not carried over: VLAN bond0.10 (id 10) on bond0 (v1.nmconnection)");
	has_text(&im, "# not carried over: VLAN vl20 (id 20) on bond0 (v2.nmconnection)");
	assert_null(strstr(im.text.s, "eth9.30"));
	has_text(&im, "# not carried over: bond0 is a bridge port of br0 (b.nmconnection)");
	done(&im);
}

/* [bond] options= is no key NetworkManager reads: noted with its meaning. */
static void nm_bond_options_key(void **state)
{
	(void)state;
	struct imported im;
	run(import_nm,
	    FILES(F("b.nmconnection", "[connection]\nid=b\ntype=bond\ninterface-name=bond0\n"
				      "[bond]\nmode=active-backup\n"
				      "options=mode=802.3ad,miimon=100,lacp_rate=fast\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	has_text(&im, "# not carried over: [bond] options=mode=802.3ad,miimon=100,lacp_rate=fast "
		      "(b.nmconnection:7): NetworkManager reads no such key and ignores it; the "
		      "author likely meant one [bond] key each: mode=802.3ad, miimon=100, "
		      "lacp_rate=fast; add them here by hand if so");
	done(&im);
}

/* A Kind=bridge netdev named as a port of the bond is not a slave. */
static void networkd_bridge_is_not_a_slave(void **state)
{
	(void)state;
	struct imported im;
	run(import_networkd,
	    FILES(F("10-bond1.netdev", "[NetDev]\nName=bond1\nKind=bond\n[Bond]\nMode=active-backup\n"
				       "MIIMonitorSec=100ms\n"),
		  F("15-br1.netdev", "[NetDev]\nName=br1\nKind=bridge\n"),
		  F("20-ports.network", "[Match]\nName=br1 eth0\n[Network]\nBond=bond1\n")),
	    3, &im);
	slaves_are(bond(&im, "bond1"), "eth0");
	has_text(&im, "# not carried over: br1 (20-ports.network) is a Kind=bridge netdev "
		      "(15-br1.netdev), not a NIC");
	done(&im);
}

/* Several arp_ping watches: every target in arp_ip_target. */
static void teamd_several_link_watches(void **state)
{
	(void)state;
	struct imported im;
	run(import_teamd,
	    FILES(F("t.json", "{\"device\": \"team0\", \"runner\": {\"name\": \"activebackup\"}, "
			      "\"link_watch\": [{\"name\": \"arp_ping\", \"interval\": 200, "
			      "\"target_host\": \"10.0.0.1\"}, {\"name\": \"arp_ping\", "
			      "\"interval\": 300, \"target_host\": \"10.0.0.2\"}, {\"name\": "
			      "\"arp_ping\", \"interval\": 200, \"target_host\": \"10.0.0.1\"}]}")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "team0");
	assert_int_equal(opt(b, OPT_ARP_INTERVAL), 200);
	assert_int_equal(b->opts.n_arp_ip_target, 2);
	has_text(&im, "arp_ip_target = 10.0.0.1,10.0.0.2\n");
	has_text(&im, "# the arp_ping link watch for 10.0.0.2 (t.json) has interval 300: the "
		      "bond has one arp_interval, 200, the first watch's");
	done(&im);
}

/* ---- netplan (netplan(5): doc/netplan-yaml.md, netplan-generate(8)) ---- */

/* Every bond parameter, with netplan's units: milliseconds unless a
 * suffix says otherwise, learn-packet-interval in seconds. */
static void netplan_bond_parameters(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("/etc/netplan/50-bonds.yaml",
		    "network:\n"
		    "  version: 2\n"
		    "  ethernets:\n"
		    "    eth1: {}\n"
		    "    eth2: {}\n"
		    "    eth5: {}\n"
		    "  bonds:\n"
		    "    bond0:\n"
		    "      interfaces: [eth2, eth1]\n"
		    "      mtu: 9000\n"
		    "      parameters:\n"
		    "        mode: 802.3ad\n"
		    "        lacp-rate: fast\n"
		    "        mii-monitor-interval: 100\n"
		    "        up-delay: 0.2s\n"
		    "        down-delay: 1s\n"
		    "        transmit-hash-policy: layer3+4\n"
		    "        ad-select: bandwidth\n"
		    "        min-links: 1\n"
		    "    bond1:\n"
		    "      interfaces: [eth5]\n"
		    "      parameters:\n"
		    "        mode: active-backup\n"
		    "        arp-interval: 500\n"
		    "        arp-ip-targets: [10.0.0.1, 10.0.0.2]\n"
		    "        arp-validate: all\n"
		    "        arp-all-targets: all\n"
		    "        fail-over-mac-policy: active\n"
		    "        gratuitious-arp: 3\n"
		    "        primary-reselect-policy: better\n"
		    "        primary: eth5\n"
		    "        resend-igmp: 2\n"
		    "    bond2:\n"
		    "      parameters:\n"
		    "        mode: balance-alb\n"
		    "        mii-monitor-interval: 50ms\n"
		    "        learn-packet-interval: 5\n"
		    "    bond3:\n"
		    "      parameters:\n"
		    "        mode: balance-rr\n"
		    "        packets-per-member: 2\n"
		    "        all-slaves-active: true\n"
		    "        unsolicited-na: 1\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_8023AD);
	assert_int_equal(opt(b, OPT_AD_LACP_RATE), 1);
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(opt(b, OPT_UPDELAY), 200);
	assert_int_equal(opt(b, OPT_DOWNDELAY), 1000);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 1);
	assert_int_equal(opt(b, OPT_AD_SELECT), 1);
	assert_int_equal(opt(b, OPT_MIN_LINKS), 1);
	assert_int_equal(b->mtu, 9000);
	slaves_are(b, "eth2 eth1");
	has_text(&im, "# Slave order: netplan keeps none; the order of interfaces: check it.\n");
	b = bond(&im, "bond1");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_int_equal(opt(b, OPT_ARP_INTERVAL), 500);
	assert_int_equal(b->opts.n_arp_ip_target, 2);
	assert_int_equal(opt(b, OPT_ARP_VALIDATE), 3);
	assert_int_equal(opt(b, OPT_ARP_ALL_TARGETS), 1);
	assert_int_equal(opt(b, OPT_FAIL_OVER_MAC), 1);
	assert_int_equal(opt(b, OPT_NUM_PEER_NOTIF), 3);
	assert_int_equal(opt(b, OPT_PRIMARY_RESELECT), 1);
	assert_int_equal(opt(b, OPT_RESEND_IGMP), 2);
	assert_string_equal(b->opts.primary, "eth5");
	b = bond(&im, "bond2");
	assert_int_equal(opt(b, OPT_MIIMON), 50);
	assert_int_equal(opt(b, OPT_LP_INTERVAL), 5);
	b = bond(&im, "bond3");
	assert_int_equal(opt(b, OPT_PACKETS_PER_SLAVE), 2);
	assert_int_equal(opt(b, OPT_ALL_SLAVES_ACTIVE), 1);
	has_text(&im, "# not carried over: unsolicited-na: 1 (bond3.parameters in "
		      "/etc/netplan/50-bonds.yaml)");
	done(&im);
}

/* interfaces are IDs: match macaddress (mac:), else set-name, else an
 * exact match name, else the ID; a glob, a bridge are no slaves. */
static void netplan_members(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("a.yaml", "network:\n"
			      "  ethernets:\n"
			      "    lan1:\n"
			      "      match: {macaddress: '52:54:00:00:00:01'}\n"
			      "      set-name: lan1\n"
			      "    port2:\n"
			      "      match: {name: enp2s0}\n"
			      "    ports3:\n"
			      "      match: {name: 'enp3*'}\n"
			      "    byMac:\n"
			      "      match: {macaddress: '52:54:00:00:00:04'}\n"
			      "    eth9:\n"
			      "      mtu: 1500\n"
			      "      dhcp4: yes\n"
			      "  bridges:\n"
			      "    br7: {interfaces: []}\n"
			      "  bonds:\n"
			      "    bond0:\n"
			      "      interfaces: [lan1, port2, ports3, byMac, eth9, br7, ghost0]\n")),
	    1, &im);
	/* match: macaddress is the permanent address: a mac: entry, with
	 * set-name or without. */
	slaves_are(bond(&im, "bond0"), "m:525400000001 enp2s0 m:525400000004 eth9 ghost0");
	has_text(&im, "slaves = mac:52:54:00:00:00:01 enp2s0 mac:52:54:00:00:00:04 eth9 ghost0\n");
	has_text(&im, "# interface lan1 (a.yaml): taken by its permanent MAC; its set-name lan1 "
		      "is netplan's to give");
	has_text(&im, "# not carried over: interface ports3 (a.yaml) matches name enp3*, a "
		      "pattern: list the links it fits in slaves by hand");
	has_text(&im, "# not carried over: interface br7 is a bridge, not a NIC");
	has_text(&im, "# interface ghost0 is defined in no file given (netplan refuses that): "
		      "taken as an interface name");
	has_text(&im, "# mtu 1500 of eth9 (a.yaml) is not carried over");
	has_text(&im, "# not carried over: DHCP on slave eth9 (a.yaml)");
	done(&im);
}

/* Files in the lexical order of their names whatever the directory; the
 * first given of one name shadows the rest; scalars replaced, sequences
 * appended (netplan-generate(8), "Handling multiple files"). */
/* A macaddress bondd cannot take falls back to the name, and says so;
 * a match by driver alone names nothing. */
static void netplan_mac_fallback(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("a.yaml", "network:\n"
			      "  ethernets:\n"
			      "    p1:\n"
			      "      match: {macaddress: '01:00:5e:00:00:01'}\n"
			      "      set-name: p1\n"
			      "    p2:\n"
			      "      match: {driver: ixgbe}\n"
			      "  bonds:\n"
			      "    bond0:\n"
			      "      interfaces: [p1, p2]\n")),
	    1, &im);
	slaves_are(bond(&im, "bond0"), "p1");
	has_text(&im, "# not carried over: mac 01:00:5e:00:00:01 (a.yaml): is a multicast "
		      "address");
	has_text(&im, "# interface p1 (a.yaml): fell back to the name p1, which a rename loses");
	has_text(&im, "# not carried over: interface p2 (a.yaml) is matched by MAC address or "
		      "driver with no set-name");
	done(&im);
}

static void netplan_merge(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("/lib/netplan/90-late.yaml", "network:\n  bonds:\n    bond0:\n"
						 "      interfaces: [e3]\n      mtu: 4000\n"
						 "      addresses: [10.1.0.2/24]\n"
						 "      parameters: {mode: balance-xor}\n"),
		  F("/run/netplan/10-base.yaml", "network:\n  version: 2\n  ethernets:\n"
						 "    e1: {}\n    e2: {}\n    e3: {}\n"
						 "  bonds:\n    bond0:\n      interfaces: [e1, e2]\n"
						 "      mtu: 9000\n      addresses: [10.1.0.1/24]\n"
						 "      parameters:\n        mode: balance-rr\n"
						 "        mii-monitor-interval: 100\n"),
		  F("/etc/netplan/10-base.yaml", "network:\n  bonds:\n    bond0:\n"
						 "      interfaces: [e9]\n")),
	    3, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	slaves_are(b, "e1 e2 e3");
	assert_int_equal(b->mtu, 4000);
	assert_int_equal(opt(b, OPT_MODE), MODE_BALANCE_XOR);
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(b->n_addrs, 2);
	addr_is(b, 0, "10.1.0.1/24");
	addr_is(b, 1, "10.1.0.2/24");
	has_text(&im, "# /etc/netplan/10-base.yaml: shadowed by /run/netplan/10-base.yaml, which "
		      "has the same name; skipped");
	done(&im);
}

/* VLANs and bridges on the bond, DHCP, address options, NetworkManager's
 * miimon default, and files that are not netplan's. */
static void netplan_stacked_and_notes(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("1.yaml", "network:\n  renderer: NetworkManager\n  ethernets:\n    e1: {}\n"
			      "  bonds:\n    bond0:\n      interfaces: [e1]\n      dhcp4: true\n"
			      "      dhcp6: yes\n      macaddress: '52:54:00:00:00:09'\n"
			      "      addresses:\n        - 192.0.2.5/24:\n            lifetime: 0\n"
			      "        - 192.0.2.6\n"
			      "  vlans:\n    vlan100:\n      id: 100\n      link: bond0\n"
			      "  bridges:\n    br0:\n      interfaces: [bond0]\n"),
		  F("2.yaml", "network: [1, 2\n"),
		  F("3.yaml", "other:\n  x: 1\n"),
		  F("4.yaml", "")),
	    4, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(b->n_addrs, 1);
	addr_is(b, 0, "192.0.2.5/24");
	has_text(&im, "# not carried over: VLAN vlan100 (id 100) on bond0 (1.yaml)");
	has_text(&im, "# not carried over: bond0 is a port of bridge br0 (1.yaml)");
	has_text(&im, "# not carried over: dhcp4, dhcp6 (1.yaml): bondd sets static addresses only");
	/* netplan writes it as the bond's MACAddress= */
	assert_true(b->has_mac);
	assert_int_equal(b->mac[5], 9);
	has_text(&im, "mac_address = 52:54:00:00:00:09\n");
	has_text(&im, "# not carried over: the options of address 192.0.2.5/24 (1.yaml)");
	has_text(&im, "# not carried over: address 192.0.2.6 (1.yaml): no prefix length");
	has_text(&im, "# miimon = 100 is NetworkManager's default (renderer NetworkManager)");
	has_text(&im, "# 2.yaml: not YAML (");
	has_text(&im, "# 3.yaml: no \"network\" mapping: not a netplan file; skipped");
	has_text(&im, "# 4.yaml: empty; skipped");
	done(&im);
}

/* Open vSwitch bonds are not kernel bonds: refused, whichever way netplan
 * says OVS (an openvswitch: mapping, an OVS-only mode, an OVS bridge that
 * lists the bond); a kernel bond beside them is still made. */
static void netplan_ovs_bonds(void **state)
{
	(void)state;
	struct imported im;
	run(import_netplan,
	    FILES(F("1.yaml", "network:\n  ethernets:\n    e1: {}\n    e2: {}\n    e3: {}\n"
			      "  bonds:\n"
			      "    ovsbond:\n      interfaces: [e1, patch0-1]\n"
			      "      parameters: {mode: balance-tcp, lacp-rate: fast}\n"
			      "      openvswitch: {lacp: active}\n"
			      "    slb:\n      interfaces: [e2]\n"
			      "      parameters: {mode: balance-slb}\n"
			      "    inbr:\n      interfaces: [e3]\n"
			      "    kbond:\n      interfaces: [e4]\n"
			      "      parameters: {mode: active-backup}\n"
			      "  bridges:\n    ovs0:\n      interfaces: [inbr]\n"
			      "      openvswitch: {}\n")),
	    1, &im);
	assert_int_equal(im.d.n_bonds, 1);
	bond(&im, "kbond");
	has_text(&im, "# not carried over: bonds.ovsbond (1.yaml) is an Open vSwitch bond (it has "
		      "an openvswitch: mapping): OVS makes it, not the kernel's bonding driver");
	has_text(&im, "bonds.slb (1.yaml) is an Open vSwitch bond (its mode balance-slb is Open "
		      "vSwitch's)");
	has_text(&im, "bonds.inbr (1.yaml) is an Open vSwitch bond (an Open vSwitch bridge lists "
		      "it)");
	assert_null(strstr(im.text.s, "patch0-1"));
	done(&im);
}

/* A scalar longer than any value the reader keeps is refused once, and an
 * alias naming it everywhere costs nothing more (it took 50 s). */
static void netplan_long_scalar(void **state)
{
	(void)state;
	struct imported im;
	static char text[300 * 1024];
	size_t at = 0;
	at += (size_t)snprintf(text + at, sizeof(text) - at,
			       "network:\n  ethernets:\n    e0: {mtu: &m ");
	memset(text + at, '9', 116000);
	at += 116000;
	at += (size_t)snprintf(text + at, sizeof(text) - at, "}\n");
	for (int i = 1; i < 400; i++)
		at += (size_t)snprintf(text + at, sizeof(text) - at,
				       "    e%d: {mtu: *m, set-name: *m, addresses: [*m, *m]}\n", i);
	at += (size_t)snprintf(text + at, sizeof(text) - at,
			       "  bonds:\n    bond0:\n      interfaces: [e1, e2]\n      mtu: *m\n"
			       "      parameters: {mode: *m}\n");
	struct import_file f = {"1.yaml", text, at};
	run(import_netplan, &f, 1, &im);
	bond(&im, "bond0");
	has_text(&im, "# not carried over: 1.yaml:3: a value of 116000 bytes, longer than any "
		      "netplan value bondd-import reads (255): refused wherever it is used");
	/* said once, not once per use */
	const char *first = strstr(im.text.s, "a value of 116000 bytes");
	assert_null(strstr(first + 1, "a value of 116000 bytes"));
	assert_null(strstr(im.text.s, "99999999"));
	done(&im);
}

/* ---- ifupdown (interfaces(5); ifenslave's and ifupdown2's bond keys) ---- */

/* Debian's ifenslave: bond-slaves in order, then bond-master slaves;
 * bond-KEY as the kernel's KEY; address with netmask or /PREFIX. */
static void ifupdown_ifenslave(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("/etc/network/interfaces",
		    "# The loopback\n"
		    "auto lo\n"
		    "iface lo inet loopback\n"
		    "\n"
		    "auto bond0\n"
		    "iface bond0 inet static\n"
		    "    address 10.40.0.5\n"
		    "    netmask 255.255.255.0\n"
		    "    gateway 10.40.0.1\n"
		    "    mtu 9000\n"
		    "    bond-slaves eth2 eth1\n"
		    "    bond-mode active-backup\n"
		    "    bond-miimon 100\n"
		    "    bond-updelay 200\n"
		    "    bond-downdelay 100\n"
		    "    bond-primary eth1\n"
		    "    bond-primary-reselect better\n"
		    "    bond-num-grat-arp 2\n"
		    "iface bond0 inet6 static\n"
		    "    address fd00:40::5\n"
		    "    netmask 64\n"
		    "auto eth3\n"
		    "iface eth3 inet manual\n"
		    "    bond-master bond0\n"
		    "    mtu 9000\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_int_equal(opt(b, OPT_MIIMON), 100);
	assert_int_equal(opt(b, OPT_UPDELAY), 200);
	assert_int_equal(opt(b, OPT_DOWNDELAY), 100);
	assert_int_equal(opt(b, OPT_PRIMARY_RESELECT), 1);
	assert_int_equal(opt(b, OPT_NUM_PEER_NOTIF), 2);
	assert_string_equal(b->opts.primary, "eth1");
	assert_int_equal(b->mtu, 9000);
	slaves_are(b, "eth2 eth1 eth3");
	assert_int_equal(b->n_addrs, 2);
	addr_is(b, 0, "10.40.0.5/24");
	addr_is(b, 1, "fd00:40::5/64");
	assert_null(desired_find_bond(&im.d, "lo"));
	assert_null(desired_find_bond(&im.d, "eth3"));
	has_text(&im, "# not carried over: gateway 10.40.0.1 (/etc/network/interfaces:9)");
	has_text(&im, "# mtu 9000 of slave eth3 (/etc/network/interfaces:23) is not carried over");
	done(&im);
}

/* ifupdown2: bond-ports, modes by number, yes/no, its old key names;
 * glob and regex lists name no interface. */
/* ifupdown2's globs, as its user guide defines them: PREFIX1-4SUFFIX and
 * [1-4] ranges (the last fastest), "glob" for the next word only. */
static void ifupdown_globs(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("interfaces",
		    "auto bond1\niface bond1\n    bond-slaves glob swp19-22\n    bond-mode 4\n"
		    "auto bond2\niface bond2\n    bond-slaves glob swp[1-2]s[0-1].100 swp9 glob e7-8\n"
		    "auto bond3\niface bond3\n    bond-slaves glob swp1-64\n"
		    "auto bond4\niface bond4\n    bond-slaves glob swp1-\n    bond-miimon 100\n")),
	    1, &im);
	slaves_are(bond(&im, "bond1"), "swp19 swp20 swp21 swp22");
	slaves_are(bond(&im, "bond2"), "swp1s0.100 swp1s1.100 swp2s0.100 swp2s1.100 swp9 e7 e8");
	assert_int_equal(bond(&im, "bond3")->n_slaves, 0);
	has_text(&im, "# not carried over: bond-slaves glob swp1-64 (interfaces:10): it makes more "
		      "names than a bond has slaves (32)");
	has_text(&im, "# not carried over: bond-slaves glob swp1- (interfaces:13): not a range "
		      "ifupdown2 expands");
	done(&im);
}

/* ifupdown2 runs Mako over the file first; bondd-import does not, and
 * names every template line instead of reading around it. */
static void ifupdown_templates(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("interfaces",
		    "auto bond0\niface bond0\n    bond-slaves e1 e2\n    bond-miimon 100\n"
		    "<%\n  vlans = [11, 12]\n%>\n"
		    "%for v in vlans:\n"
		    "auto bond0.${v}\niface bond0.${v}\n    address 10.20.${v}.3/24\n"
		    "%endfor\n"
		    "    mtu 9000\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	slaves_are(b, "e1 e2");
	has_text(&im, "# not carried over: interfaces:5: \"<%\" is a Mako template line of "
		      "ifupdown2, which bondd-import does not run");
	has_text(&im, "# not carried over: interfaces:8: \"%for v in vlans:\" is a Mako template "
		      "line");
	has_text(&im, "# not carried over: interfaces:9: \"auto bond0.${v}\" is a Mako");
	assert_null(strstr(im.text.s, "address = 10.20."));
	assert_int_equal(b->n_addrs, 0);
	/* after a template line the stanza is unknown: "mtu 9000" is not bond0's */
	assert_int_equal(b->mtu, 1500);
	has_text(&im, "# interfaces: 1 lines outside any iface stanza were skipped");
	done(&im);
}

/* Classic ifupdown's ${IFACE} in a command is the shell's, not Mako's:
 * without Mako's control lines the file is read as ever. */
static void ifupdown_shell_braces_are_no_template(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("interfaces",
		    "auto bond0\niface bond0 inet static\n    address 10.3.0.1/24\n"
		    "    post-up echo 1 >/proc/sys/net/ipv6/conf/${IFACE}/disable_ipv6\n"
		    "    bond-slaves e1 e2\n    bond-mode 1\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	slaves_are(b, "e1 e2");
	assert_int_equal(opt(b, OPT_MODE), MODE_ACTIVE_BACKUP);
	assert_null(strstr(im.text.s, "Mako"));
	has_text(&im, "# not carried over: post-up echo 1 >/proc/sys/net/ipv6/conf/${IFACE}");
	done(&im);
}

/* A bond-master that names no bond: reported, not made a bond.  A slave's
 * sibling NIC (a typo in a real file), a NIC name without bond keys; a
 * bond named only by its slaves' bond-master is still a bond. */
static void ifupdown_master_not_a_bond(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("interfaces",
		    "auto bond0\niface bond0 inet manual\n    bond-slaves none\n    bond-mode 1\n"
		    "iface enp7s0f0 inet manual\n    bond-master bond0\n"
		    "iface enp7s0f1 inet manual\n    bond-master enp7s0f0\n"
		    "iface eno1 inet manual\n"
		    "iface eno2 inet manual\n    bond-master eno1\n"
		    "iface bond9 inet manual\n"
		    "iface e5 inet manual\n    bond-master bond9\n")),
	    1, &im);
	slaves_are(bond(&im, "bond0"), "enp7s0f0");
	slaves_are(bond(&im, "bond9"), "e5");
	assert_null(desired_find_bond(&im.d, "enp7s0f0"));
	assert_null(desired_find_bond(&im.d, "eno1"));
	has_text(&im, "# not carried over: interfaces:7: enp7s0f1 names bond-master enp7s0f0, which "
		      "is no bond (it is itself a slave (bond-master)): not made a bond; a typo?");
	has_text(&im, "# not carried over: interfaces:10: eno2 names bond-master eno1, which is no "
		      "bond (a NIC's name, and its stanzas have no bond key)");
	done(&im);
}

static void ifupdown_ifupdown2(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("interfaces",
		    "auto bond1\n"
		    "iface bond1\n"
		    "    bond-ports swp1 swp2\n"
		    "    bond-mode 4\n"
		    "    bond-miimon 100\n"
		    "    bond-use-carrier yes\n"
		    "    bond-lacp-rate 1\n"
		    "    bond-min-links 1\n"
		    "    bond-ad-sys-priority 100\n"
		    "    bond-lacp-bypass-allow no\n"
		    "    bond-xmit-hash-policy layer2+3\n"
		    "    address 10.41.0.1/24\n"
		    "auto bond2\n"
		    "iface bond2 inet manual\n"
		    "    bond-slaves glob swp3-4\n"
		    "    bond-mode balance-rr\n"
		    "    address 10.42.0.1/24\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond1");
	assert_int_equal(opt(b, OPT_MODE), MODE_8023AD);
	assert_int_equal(opt(b, OPT_USE_CARRIER), 1);
	assert_int_equal(opt(b, OPT_AD_LACP_RATE), 1);
	assert_int_equal(opt(b, OPT_MIN_LINKS), 1);
	assert_int_equal(opt(b, OPT_AD_ACTOR_SYS_PRIO), 100);
	assert_int_equal(opt(b, OPT_XMIT_HASH_POLICY), 2);
	slaves_are(b, "swp1 swp2");
	assert_int_equal(b->n_addrs, 1);
	addr_is(b, 0, "10.41.0.1/24");
	has_text(&im, "# not carried over: address 10.42.0.1/24 (interfaces:17): ifupdown's manual "
		      "method adds no address (ifupdown2 would: add it by hand if this host runs "
		      "ifupdown2)");
	has_text(&im, "# not carried over: bond-lacp-bypass-allow no (interfaces:10): no kernel "
		      "bonding option bondd manages");
	/* ifupdown2 defines what "glob swp3-4" expands to: its names */
	slaves_are(bond(&im, "bond2"), "swp3 swp4");
	done(&im);
}

/* source (a pattern, relative to the including file's directory) and
 * source-directory (run-parts names, lexical order); a file is read once. */
static void ifupdown_sources(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("/etc/network/interfaces",
		    "source interfaces.d/*\n"
		    "auto bond0\n"
		    "iface bond0 inet manual\n"
		    "    bond-slaves none\n"
		    "    bond-mode balance-rr\n"
		    "source-directory /etc/network/more.d\n"
		    "source /etc/network/interfaces.d/a\n"
		    "source nothing-here\n"),
		  F("/etc/network/more.d/z1", "iface e9 inet manual\n    bond-master bond0\n"),
		  F("/etc/network/interfaces.d/b", "iface e2 inet manual\n    bond-master bond0\n"),
		  F("/etc/network/more.d/a.cfg", "iface e7 inet manual\n    bond-master bond0\n"),
		  F("/etc/network/interfaces.d/a", "iface e1 inet manual\n    bond-master bond0\n"),
		  F("/etc/network/more.d/y0", "iface e8 inet manual\n    bond-master bond0\n")),
	    6, &im);
	/* e1 and e2 by the glob in name order, then bond0's own file, then
	 * more.d's y0 and z1; a.cfg is not a run-parts name, and interfaces.d/a
	 * is not read twice. */
	slaves_are(bond(&im, "bond0"), "e1 e2 e8 e9 e7");
	has_text(&im, "# /etc/network/interfaces:8: source nothing-here names no file that was read");
	done(&im);
}

/* VLANs and bridges on the bond, DHCP, no auto line, continuations. */
static void ifupdown_stacked_and_notes(void **state)
{
	(void)state;
	struct imported im;
	run(import_ifupdown,
	    FILES(F("i", "iface bond0 inet dhcp\n"
			 "    bond-slaves e1 \\\n"
			 "      e2\n"
			 "    bond-mode 802.3ad\n"
			 "    bond-miimon 100\n"
			 "    hwaddress 52:54:00:00:00:01\n"
			 "auto bond0.10\n"
			 "iface bond0.10 inet manual\n"
			 "auto vl20\n"
			 "iface vl20 inet manual\n"
			 "    vlan-raw-device bond0\n"
			 "auto vmbr0\n"
			 "iface vmbr0 inet static\n"
			 "    address 192.0.2.1/24\n"
			 "    bridge-ports bond0 e5\n"
			 "iface e6 inet manual\n"
			 "    bond-master bond9\n")),
	    1, &im);
	const struct desired_bond *b = bond(&im, "bond0");
	slaves_are(b, "e1 e2");
	assert_int_equal(b->n_addrs, 0);
	has_text(&im, "# bond0 has no auto or allow- line: ifupdown brings it up only by hand");
	has_text(&im, "# not carried over: iface bond0 inet dhcp (i:1): bondd sets static "
		      "addresses only");
	has_text(&im, "# not carried over: hwaddress 52:54:00:00:00:01 (i:6)");
	has_text(&im, "# not carried over: VLAN bond0.10 on bond0 (i:8)");
	has_text(&im, "# not carried over: VLAN vl20 on bond0 (i:10)");
	has_text(&im, "# not carried over: bond0 is a port of bridge vmbr0 (i:13)");
	has_text(&im, "# i:16: e6 names bond-master bond9, which no iface stanza read defines");
	assert_null(desired_find_bond(&im.d, "vmbr0"));
	done(&im);
}

/* ---- the companion: what the source's manager needs to keep the uppers -- */

struct companion_case {
	const char *what;
	reader_fn read;
	const struct import_file *files;
	size_t n;
	const char *companion; /* bondd-import --companion's text, exactly */
	const char *conf;      /* a line the bondd.conf must hold, or NULL */
	const char *not_conf;  /* one it must not, or NULL */
};

#define NETWORKD_SLAVES                                                                    \
	"== /etc/systemd/network/00-bondd.network ==\n"                                    \
	"# networkd keeps off bondd's slaves (the first file that fits wins).\n"           \
	"[Match]\nName=e1 e2\n\n[Link]\nUnmanaged=yes\n"

static const struct companion_case companion_cases[] = {
	{"networkd: VLAN= and Bridge= in the bond's .network", import_networkd,
	 FILES(F("/n/10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\nMTUBytes=9000\n"
				       "[Bond]\nMode=active-backup\nMIIMonitorSec=100ms\n"),
	       F("/n/10-bond0.network", "[Match]\nName=bond0\n[Network]\nVLAN=bond0.21\n"
					"VLAN=bond0.22\nBridge=vmbr0\nAddress=192.0.2.1/24\n"),
	       F("/n/20-e.network", "[Match]\nName=e1 e2\n[Network]\nBond=bond0\n"),
	       F("/n/30-v.netdev", "[NetDev]\nName=bond0.21\nKind=vlan\n[VLAN]\nId=21\n")),
	 4,
	 "== /etc/systemd/network/00-bondd-bond0.network ==\n"
	 "# In place of bond0's .netdev and .network: bondd makes the bond,\n"
	 "# networkd only stacks on it (no MTUBytes=, no address).\n"
	 "[Match]\nName=bond0\n\n[Network]\nVLAN=bond0.21\nVLAN=bond0.22\nBridge=vmbr0\n"
	 "LinkLocalAddressing=no\n" NETWORKD_SLAVES,
	 "address = 192.0.2.1/24\n", "bridge ="},
	{"networkd: a bond with nothing on it has no companion", import_networkd,
	 FILES(F("/n/10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\n"),
	       F("/n/20-e.network", "[Match]\nName=e1 e2\n[Network]\nBond=bond0\n")),
	 2, "", NULL, "#|"},
	{"netplan (networkd): vlans: and bridges: over the bond", import_netplan,
	 FILES(F("/e/50.yaml", "network:\n  version: 2\n  renderer: networkd\n"
			       "  ethernets:\n    e1: {}\n    e2: {}\n"
			       "  bonds:\n    bond0:\n      interfaces: [e1, e2]\n      mtu: 9000\n"
			       "      parameters: {mode: active-backup, mii-monitor-interval: 100}\n"
			       "  vlans:\n    bond0.21:\n      id: 21\n      link: bond0\n"
			       "  bridges:\n    vmbr0:\n      interfaces: [bond0]\n")),
	 1,
	 "== /etc/netplan/60-bondd.yaml ==\n"
	 "# In place of the bonds: entries: bondd makes the bonds; these\n"
	 "# entries make them netplan IDs for vlans: and bridges:, and\n"
	 "# configure nothing.\n"
	 "network:\n  version: 2\n  ethernets:\n    bond0:\n      match:\n        name: bond0\n"
	 "      link-local: []\n" NETWORKD_SLAVES,
	 "#| == /etc/netplan/60-bondd.yaml ==\n", "bridge ="},
	{"netplan (NetworkManager): no networkd companion", import_netplan,
	 FILES(F("/e/50.yaml", "network:\n  version: 2\n  renderer: NetworkManager\n"
			       "  bonds:\n    bond0:\n      interfaces: [e1, e2]\n"
			       "  vlans:\n    bond0.21:\n      id: 21\n      link: bond0\n")),
	 1, "", "# bond0 (/e/50.yaml): renderer NetworkManager: no companion is written; see the "
	 "NetworkManager recipe of bondd(8)\n", "#|"},
	{"ifupdown2, Proxmox's layout: the stanza with the MTU, bridge =", import_ifupdown,
	 FILES(F("/etc/network/interfaces",
		 "auto lo\niface lo inet loopback\n\niface e1 inet manual\niface e2 inet manual\n\n"
		 "auto bond0\niface bond0 inet manual\n\tbond-slaves e1 e2\n\tbond-miimon 100\n"
		 "\tbond-mode 802.3ad\n\tmtu 9000\n\n"
		 "auto vmbr0\niface vmbr0 inet static\n\taddress 192.0.2.10/24\n"
		 "\tbridge-ports bond0\n\tbridge-stp off\n\tbridge-fd 0\n\n"
		 "auto vlan21\niface vlan21 inet6 static\n\tvlan-raw-device bond0\n"
		 "\tvlan-id 21\n\taddress 2001:db8:21::1/64\n")),
	 1,
	 "== /etc/network/interfaces: in place of bond0's stanza ==\n"
	 "# No bond-* line: bondd makes the bond.  The MTU is bondd's: without\n"
	 "# it ifupdown2 sets 1500 at every ifup and ifreload, which bondd\n"
	 "# repairs.\n"
	 "auto bond0\niface bond0 inet manual\n\tmtu 9000\n",
	 "\nbridge = vmbr0\n", NULL},
	{"ifupdown: no MTU in the source: the kernel's 1500, said", import_ifupdown,
	 FILES(F("/etc/network/interfaces",
		 "auto bond0\niface bond0 inet manual\n\tbond-slaves e1 e2\n\n"
		 "auto bond0.7\niface bond0.7 inet manual\n")),
	 1,
	 "== /etc/network/interfaces: in place of bond0's stanza ==\n"
	 "# No bond-* line: bondd makes the bond.  The MTU is bondd's: without\n"
	 "# it ifupdown2 sets 1500 at every ifup and ifreload, which bondd\n"
	 "# repairs.\n"
	 "auto bond0\niface bond0 inet manual\n\tmtu 1500\n",
	 "mtu = 1500\n", "bridge ="},
	{"NetworkManager: unmanaged-devices, the bridge port is bondd's", import_nm,
	 FILES(F("b.nmconnection", "[connection]\nid=bond-b\nuuid=1111-2222\ntype=bond\n"
				   "interface-name=bond0\ncontroller=3333-4444\nport-type=bridge\n"
				   "[bond]\nmode=active-backup\nmiimon=100\n"),
	       F("br.nmconnection", "[connection]\nid=br\nuuid=3333-4444\ntype=bridge\n"
				    "interface-name=vmbr0\n"),
	       F("p1.nmconnection", "[connection]\nid=p1\ntype=ethernet\ninterface-name=e1\n"
				    "controller=bond0\nport-type=bond\n"),
	       F("p2.nmconnection", "[connection]\nid=p2\ntype=ethernet\ninterface-name=e2\n"
				    "controller=bond0\nport-type=bond\n"),
	       F("v.nmconnection", "[connection]\nid=v\ntype=vlan\n"
				   "[vlan]\nid=21\nparent=1111-2222\n")),
	 5,
	 "== /etc/NetworkManager/conf.d/90-bondd.conf ==\n"
	 "# NetworkManager keeps off bondd's bonds and slaves; delete their\n"
	 "# profiles, keep the VLANs' (parent= the bond's name).\n"
	 "[keyfile]\n"
	 "unmanaged-devices=interface-name:bond0;interface-name:e1;interface-name:e2\n",
	 "\nbridge = vmbr0\n", NULL},
	{"teamd: no companion", import_teamd,
	 FILES(F("t.json", "{\"device\": \"team0\", \"runner\": {\"name\": \"activebackup\"},"
			   " \"ports\": {\"e1\": {}}}")),
	 1, "", NULL, "#|"},
};

static void companion_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(companion_cases); i++) {
		const struct companion_case *c = &companion_cases[i];
		struct imported im;
		struct strbuf comp = {0};
		print_message("case: %s\n", c->what);
		run(c->read, c->files, c->n, &im);
		assert_int_equal(import_companion(&im.r, "", &comp), 0);
		if (strcmp(comp.s ? comp.s : "", c->companion) != 0)
			print_error("companion:\n%s\nwanted:\n%s\n", comp.s ? comp.s : "",
				    c->companion);
		assert_string_equal(comp.s ? comp.s : "", c->companion);
		if (c->conf)
			has_text(&im, c->conf);
		if (c->not_conf && strstr(im.text.s, c->not_conf))
			print_error("unwanted \"%s\" in:\n%s", c->not_conf, im.text.s);
		assert_null(c->not_conf ? strstr(im.text.s, c->not_conf) : NULL);
		/* In bondd.conf, every companion line after "#|". */
		for (const char *at = comp.s; at && *at;) {
			const char *nl = strchr(at, '\n');
			char want[600];
			int len = (int)(nl - at);
			snprintf(want, sizeof(want), "\n#|%s%.*s\n", len ? " " : "", len, at);
			has_text(&im, want);
			at = nl + 1;
		}
		sb_free(&comp);
		done(&im);
	}
}

/* Names that cannot be interfaces stay out of the companion, with a note;
 * more VLANs than the companion keeps are noted. */
static void companion_hostile_names(void **state)
{
	(void)state;
	struct imported im;
	char text[4096] = "[Match]\nName=bond0\n[Network]\nBridge=a/b\n";
	for (int i = 0; i < IMPORT_MAX_VLANS + 2; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "VLAN=v%d\n", i);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), "VLAN=waytoolonganame.123\n");
	struct import_file files[] = {
		F("/n/10-bond0.netdev", "[NetDev]\nName=bond0\nKind=bond\n"),
		{"/n/10-bond0.network", text, strlen(text)},
	};
	run(import_networkd, files, 2, &im);
	assert_int_equal(im.r.bonds[0].n_vlans, IMPORT_MAX_VLANS);
	assert_string_equal(im.r.bonds[0].bridge, "");
	has_text(&im, "# bridge \"a/b\" on bond0 (/n/10-bond0.network:4) is left out of the "
		      "companion: contains \"/\"");
	has_text(&im, "# VLAN v16 on bond0 (/n/10-bond0.network:21) is left out of the companion: "
		      "more than 16 VLANs");
	has_text(&im, "# VLAN \"waytoolonganame.123\" on bond0 (/n/10-bond0.network:23) is left out "
		      "of the companion: is longer than 15 bytes");
	assert_null(strstr(im.text.s, "#| Bridge="));
	done(&im);
}

/* The slaves' lists are as long as the bonds make them: nothing cut. */
static void companion_long_lists(void **state)
{
	(void)state;
	struct imported im;
	struct strbuf comp = {0};
	char slaves[2][1024] = {"[Match]\nName=", "[Match]\nName="};
	for (int b = 0; b < 2; b++) {
		for (int i = 0; i < BONDD_MAX_SLAVES; i++)
			snprintf(slaves[b] + strlen(slaves[b]), sizeof(slaves[b]) - strlen(slaves[b]),
				 "%senp%ds0f%d", i ? " " : "", b, i);
		snprintf(slaves[b] + strlen(slaves[b]), sizeof(slaves[b]) - strlen(slaves[b]),
			 "\n[Network]\nBond=bond%d\n", b);
	}
	struct import_file files[] = {
		F("/n/10-a.netdev", "[NetDev]\nName=bond0\nKind=bond\n"),
		F("/n/10-b.netdev", "[NetDev]\nName=bond1\nKind=bond\n"),
		F("/n/10-bond0.network", "[Match]\nName=bond0\n[Network]\nVLAN=bond0.5\n"),
		F("/n/10-bond1.network", "[Match]\nName=bond1\n[Network]\nBridge=br1\n"),
		{"/n/20-a.network", slaves[0], strlen(slaves[0])},
		{"/n/20-b.network", slaves[1], strlen(slaves[1])},
	};
	run(import_networkd, files, N(files), &im);
	assert_int_equal(import_companion(&im.r, "", &comp), 0);
	assert_non_null(strstr(comp.s, "Name=enp0s0f0 enp0s0f1 "));
	assert_non_null(strstr(comp.s, " enp1s0f30 enp1s0f31\n"));
	assert_true(strlen(comp.s) > 1024);
	sb_free(&comp);
	im.r.format = "NetworkManager"; /* the same bonds, NetworkManager's file */
	assert_int_equal(import_companion(&im.r, "", &comp), 0);
	assert_non_null(strstr(comp.s, "unmanaged-devices=interface-name:bond0;interface-name:"
				       "enp0s0f0;"));
	assert_non_null(strstr(comp.s, ";interface-name:enp1s0f31\n"));
	sb_free(&comp);
	done(&im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ifcfg_bonding_opts),
		cmocka_unit_test(ifcfg_slave_order_is_file_order),
		cmocka_unit_test(ifcfg_addresses),
		cmocka_unit_test(ifcfg_mtu),
		cmocka_unit_test(ifcfg_arp_monitor),
		cmocka_unit_test(ifcfg_notes_and_refusals),
		cmocka_unit_test(ifcfg_names_and_ignored_files),
		cmocka_unit_test(ifcfg_slave_by_hwaddr),
		cmocka_unit_test(networkd_bond_settings),
		cmocka_unit_test(networkd_units),
		cmocka_unit_test(netplan_ovs_bonds),
		cmocka_unit_test(netplan_long_scalar),
		cmocka_unit_test(networkd_dropins_mac_and_notes),
		cmocka_unit_test(networkd_slaves),
		cmocka_unit_test(networkd_match_by_hardware),
		cmocka_unit_test(networkd_bond_network),
		cmocka_unit_test(networkd_shadow_and_mask),
		cmocka_unit_test(nm_bond_and_ports),
		cmocka_unit_test(nm_miimon_default),
		cmocka_unit_test(nm_ports_by_hardware),
		cmocka_unit_test(nm_dhcp_and_escapes),
		cmocka_unit_test(teamd_lacp),
		cmocka_unit_test(teamd_activebackup),
		cmocka_unit_test(teamd_arp_ping_and_others),
		cmocka_unit_test(json_reader),
		cmocka_unit_test(render_nothing_found),
		cmocka_unit_test(hostile_values),
		cmocka_unit_test(netmask_prefix),
		cmocka_unit_test(ifcfg_vlan_is_not_a_bond),
		cmocka_unit_test(ifcfg_master_without_slave),
		cmocka_unit_test(nm_address_keys),
		cmocka_unit_test(nm_stacked_devices),
		cmocka_unit_test(nm_bond_options_key),
		cmocka_unit_test(networkd_bridge_is_not_a_slave),
		cmocka_unit_test(teamd_several_link_watches),
		cmocka_unit_test(netplan_bond_parameters),
		cmocka_unit_test(netplan_members),
		cmocka_unit_test(netplan_merge),
		cmocka_unit_test(netplan_mac_fallback),
		cmocka_unit_test(netplan_stacked_and_notes),
		cmocka_unit_test(ifupdown_ifenslave),
		cmocka_unit_test(ifupdown_ifupdown2),
		cmocka_unit_test(ifupdown_globs),
		cmocka_unit_test(ifupdown_templates),
		cmocka_unit_test(ifupdown_shell_braces_are_no_template),
		cmocka_unit_test(ifupdown_master_not_a_bond),
		cmocka_unit_test(ifupdown_sources),
		cmocka_unit_test(ifupdown_stacked_and_notes),
		cmocka_unit_test(companion_table),
		cmocka_unit_test(companion_hostile_names),
		cmocka_unit_test(companion_long_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
