# SPDX-License-Identifier: MIT
# Migration: bondd-import's output for sample files of each format
# (tests/unit/data/import/), applied by bondd, gives the bonds those files
# mean to their own tool.  The expectations below are derived by hand from
# the source files and their tools' documentation, not from the import:
#
# ifcfg (initscripts): ifcfg-bond0 BONDING_OPTS="mode=802.3ad miimon=100
#   lacp_rate=fast xmit_hash_policy=layer3+4", MTU=9000, IPADDR/PREFIX
#   10.77.0.1/24, IPADDR1/NETMASK1 10.78.0.1/255.255.0.0, IPV6INIT=yes with
#   IPV6ADDR fd00:77::1/64; slaves ifcfg-e1, -e2, -e3 (MASTER=bond0
#   SLAVE=yes), which ifup-eth enslaves in file-name order: e1 e2 e3.
# networkd: 20-bond1.netdev Mode=active-backup, MIIMonitorSec=100ms,
#   UpDelaySec=200ms, PrimaryReselectPolicy=better; 30-bond1-ports.network
#   Name=e5 e4 and 31-bond1-primary.network Name=e6 PrimarySlave=yes (Bond=
#   bond1); 40-bond1.network Address=10.79.0.1/24, MTUBytes=1500.
# NetworkManager: bond2.nmconnection mode=balance-rr, packets_per_slave=1,
#   no miimon (NetworkManager's default: 100), [ethernet] mtu=9000,
#   address1=10.80.0.1/24; ports e7 (master=<uuid>) and e8 (controller=
#   bond2), listed by keyfile name: e7 e8.
# teamd: team3.conf runner activebackup with hwaddr_policy by_active
#   (fail_over_mac active), ethtool link watch (miimon 100) with delay_up
#   200 and delay_down 100, notify_peers.count 2 (num_grat_arp), ports e10
#   (prio 100) then e9 (prio -10); no MTU (the kernel's 1500).
# netplan: 50-cloud-init.yaml bonds.bond4 parameters mode 802.3ad,
#   lacp-rate fast, mii-monitor-interval 100 (milliseconds: no suffix),
#   transmit-hash-policy layer3+4, mtu 9000, addresses 10.81.0.1/24,
#   interfaces e11 and nic12 (matched by MAC, set-name e12: imported as
#   mac:52:54:00:12:00:12, named e12 here for a veth); 90-local.yaml,
#   later by name, appends e13 to interfaces and adds up-delay 200.
# ifupdown: interfaces' iface bond5 inet static, address 10.82.0.1 with
#   netmask 255.255.255.0, mtu 9000, bond-slaves e14 e15, bond-mode
#   balance-rr, bond-miimon 100, bond-updelay 200; interfaces.d/ports (read
#   through "source interfaces.d/*") has e16 with bond-master bond5, which
#   ifenslave enslaves after the bond-slaves: e14 e15 e16.
#
# The ifcfg import is the main file, the other two are drop-ins: the
# daemon reads bondd.conf.d too, at start and on reload.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

: "${BONDD_IMPORT:=$BUILD_DIR/src/bondd-import}"
DATA=$LIB_DIR/../unit/data/import

nics 17
"$BONDD_IMPORT" ifcfg "$DATA/ifcfg" >"$WORK/bondd.conf"
mkdir "$WORK/bondd.conf.d"
"$BONDD_IMPORT" networkd "$DATA/networkd" >"$WORK/bondd.conf.d/20-networkd.conf"
"$BONDD_IMPORT" nm "$DATA/nm" >"$WORK/bondd.conf.d/30-nm.conf"
"$BONDD_IMPORT" teamd "$DATA/teamd" >"$WORK/bondd.conf.d/35-teamd.conf"
"$BONDD_IMPORT" netplan "$DATA/netplan" >"$WORK/bondd.conf.d/36-netplan.conf"
# nic12 is matched by MAC: the import names it mac:52:54:00:12:00:12, its
# permanent address, which a veth does not have (scenario 230 enslaves by
# mac: on NICs that do); here it is the veth e12, its set-name.
file_has "$WORK/bondd.conf.d/36-netplan.conf" "slaves = e11 mac:52:54:00:12:00:12 e13" ||
	{ cat "$WORK/bondd.conf.d/36-netplan.conf"; fail "the netplan import lacks nic12's mac:"; }
sed -i 's/ mac:52:54:00:12:00:12 / e12 /' "$WORK/bondd.conf.d/36-netplan.conf"
"$BONDD_IMPORT" ifupdown "$DATA/ifupdown/interfaces" >"$WORK/bondd.conf.d/37-ifupdown.conf"
# Beside the imports, a per-host drop-in: an address for the ifcfg bond,
# and a bond of its own (with its slaves: a drop-in's section for a bond
# no file defines needs them) without mtu and link monitor (two warnings).
write_conf "$WORK/bondd.conf.d/40-host.conf" <<CONF
[bond0]
address = 10.77.9.1/24
[bond3]
slaves = e17
CONF
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check.out" 2>&1 ||
	{ cat "$WORK/check.out"; fail "bondd --check refuses the imports"; }

start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
whole bond1 e5,e4,e6 1500 >/dev/null
whole bond2 e7,e8 9000 >/dev/null
whole team3 e10,e9 1500 >/dev/null
whole bond4 e11,e12,e13 9000 >/dev/null
whole bond5 e14,e15,e16 9000 >/dev/null

b=/sys/class/net
# ifcfg
assert_eq "802.3ad 4" "$(sysval $b/bond0/bonding/mode)" "bond0 mode"
assert_eq 100 "$(sysval $b/bond0/bonding/miimon)" "bond0 miimon"
assert_eq "fast 1" "$(sysval $b/bond0/bonding/lacp_rate)" "bond0 lacp_rate"
assert_eq "layer3+4 1" "$(sysval $b/bond0/bonding/xmit_hash_policy)" "bond0 xmit_hash_policy"
assert_eq "e1 e2 e3" "$(sysval $b/bond0/bonding/slaves)" "bond0 order"
for i in e1 e2 e3; do assert_eq 9000 "$(sysval $b/$i/mtu)" "$i mtu"; done
# networkd
assert_eq "active-backup 1" "$(sysval $b/bond1/bonding/mode)" "bond1 mode"
assert_eq 100 "$(sysval $b/bond1/bonding/miimon)" "bond1 miimon"
assert_eq 200 "$(sysval $b/bond1/bonding/updelay)" "bond1 updelay"
assert_eq "better 1" "$(sysval $b/bond1/bonding/primary_reselect)" "bond1 primary_reselect"
assert_eq e6 "$(sysval $b/bond1/bonding/primary)" "bond1 primary"
assert_eq "e5 e4 e6" "$(sysval $b/bond1/bonding/slaves)" "bond1 order"
for i in e4 e5 e6; do assert_eq 1500 "$(sysval $b/$i/mtu)" "$i mtu"; done
# NetworkManager
assert_eq "balance-rr 0" "$(sysval $b/bond2/bonding/mode)" "bond2 mode"
assert_eq 1 "$(sysval $b/bond2/bonding/packets_per_slave)" "bond2 packets_per_slave"
assert_eq 100 "$(sysval $b/bond2/bonding/miimon)" "bond2 miimon"
assert_eq "e7 e8" "$(sysval $b/bond2/bonding/slaves)" "bond2 order"
for i in e7 e8; do assert_eq 9000 "$(sysval $b/$i/mtu)" "$i mtu"; done
# teamd
assert_eq "active-backup 1" "$(sysval $b/team3/bonding/mode)" "team3 mode"
assert_eq "active 1" "$(sysval $b/team3/bonding/fail_over_mac)" "team3 fail_over_mac"
assert_eq 100 "$(sysval $b/team3/bonding/miimon)" "team3 miimon"
assert_eq 200 "$(sysval $b/team3/bonding/updelay)" "team3 updelay"
assert_eq 100 "$(sysval $b/team3/bonding/downdelay)" "team3 downdelay"
assert_eq 2 "$(sysval $b/team3/bonding/num_grat_arp)" "team3 num_grat_arp"
assert_eq "e10 e9" "$(sysval $b/team3/bonding/slaves)" "team3 order"
assert_eq 100 "$(ip -d -j link show e10 | grep -o '"prio":-\{0,1\}[0-9]*' | cut -d: -f2)" "e10 prio"
assert_eq -10 "$(ip -d -j link show e9 | grep -o '"prio":-\{0,1\}[0-9]*' | cut -d: -f2)" "e9 prio"
# netplan
assert_eq "802.3ad 4" "$(sysval $b/bond4/bonding/mode)" "bond4 mode"
assert_eq "fast 1" "$(sysval $b/bond4/bonding/lacp_rate)" "bond4 lacp_rate"
assert_eq 100 "$(sysval $b/bond4/bonding/miimon)" "bond4 miimon"
assert_eq 200 "$(sysval $b/bond4/bonding/updelay)" "bond4 updelay"
assert_eq "layer3+4 1" "$(sysval $b/bond4/bonding/xmit_hash_policy)" "bond4 xmit_hash_policy"
assert_eq "e11 e12 e13" "$(sysval $b/bond4/bonding/slaves)" "bond4 order"
for i in e11 e12 e13; do assert_eq 9000 "$(sysval $b/$i/mtu)" "$i mtu"; done
# ifupdown
assert_eq "balance-rr 0" "$(sysval $b/bond5/bonding/mode)" "bond5 mode"
assert_eq 100 "$(sysval $b/bond5/bonding/miimon)" "bond5 miimon"
assert_eq 200 "$(sysval $b/bond5/bonding/updelay)" "bond5 updelay"
assert_eq "e14 e15 e16" "$(sysval $b/bond5/bonding/slaves)" "bond5 order"
for i in e14 e15 e16; do assert_eq 9000 "$(sysval $b/$i/mtu)" "$i mtu"; done

# Addresses: exactly those of the sources (bondd adds no other global one).
addrs() { ip -o addr show dev "$1" scope global | awk '{ print $4 }' | sort | tr '\n' ' '; }
# bond0 also has the per-host drop-in's address.
assert_eq "10.77.0.1/24 10.77.9.1/24 10.78.0.1/16 fd00:77::1/64 " "$(addrs bond0)" \
	"bond0 addresses"
assert_eq "10.79.0.1/24 " "$(addrs bond1)" "bond1 addresses"
assert_eq "10.80.0.1/24 " "$(addrs bond2)" "bond2 addresses"
assert_eq "10.81.0.1/24 " "$(addrs bond4)" "bond4 addresses"
assert_eq "10.82.0.1/24 " "$(addrs bond5)" "bond5 addresses"

# --check and the daemon report the drop-in's warnings with FILE:LINE.
w="$WORK/bondd.conf.d/40-host.conf:3: warning: [bond3]:"
file_has "$WORK/check.out" "$w no mtu" || { cat "$WORK/check.out"; fail "--check: no mtu warning"; }
file_has "$WORK/check.out" "configuration OK" || fail "--check: warnings made it fail"
file_has "$BONDD_LOG" "$w no mtu" || { show_log; fail "bondd did not log the mtu warning"; }
file_has "$BONDD_LOG" "$w mode balance-rr without link monitoring" ||
	{ show_log; fail "bondd did not log the link monitoring warning"; }
[ -d $b/bond3 ] || fail "bond3 of the drop-in was not made"

# A reload reads the drop-ins too: a new one adds an address to bond2 in
# place; a broken one is refused with its own FILE:LINE and changes nothing.
index=$(sysval $b/bond2/ifindex)
write_conf "$WORK/bondd.conf.d/50-more.conf" <<CONF
[bond2]
address = 10.80.1.1/24
CONF
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || { show_log; fail "no reload"; }
wait_until 5 has_addr bond2 10.80.1.1/24 || { show_log; fail "the new drop-in's address is missing"; }
assert_eq "$index" "$(sysval $b/bond2/ifindex)" "bond2 ifindex (changed in place)"
write_conf "$WORK/bondd.conf.d/60-bad.conf" <<CONF
[bond2]
miimon = 200
CONF
kill -HUP "$BONDD_PID"
wait_log "60-bad.conf:2: miimon: [bond2] is already defined" 1 10 ||
	{ show_log; fail "the broken drop-in was not refused with its FILE:LINE"; }
assert_eq 100 "$(sysval $b/bond2/bonding/miimon)" "bond2 miimon after a refused reload"
has_addr bond2 10.80.1.1/24 || fail "a refused reload changed bond2's addresses"
