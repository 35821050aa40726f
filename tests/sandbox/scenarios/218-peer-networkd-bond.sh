# SPDX-License-Identifier: MIT
# systemd-networkd's own bond tests (test/test-network,
# systemd-networkd-tests.py test_bond and the bond97 property case, with
# their .netdev files as systemd ships them: 25-bond.netdev,
# 25-bond-balanced-tlb.netdev, 25-bond-property.netdev), rebuilt on bondd:
# the files go through "bondd-import networkd" and bondd makes the bonds.
# The 802.3ad system settings the test expects of bond99 come in a drop-in
# (25-bond.netdev.d/), bond99's address in its .network and its MAC in a
# .network.d drop-in; two dummy links join it by a .network with Bond=,
# ActiveSlave= (that slave listed first, so the kernel makes it active)
# and DHCP= (noted by the import, not carried over).
# networkd's assertions, as systemd wrote them (check_link_attr reads
# /sys/class/net/BOND/bonding/ATTR): bond99 mode "802.3ad 4",
# xmit_hash_policy "layer3+4 1", miimon 1000, lacp_rate "fast 1", updelay
# 2000, downdelay 2000, resend_igmp 4, min_links 1, ad_actor_sys_prio
# 1218, ad_user_port_key 811, ad_actor_system 00:11:22:33:44:55; bond98
# mode "balance-tlb 5", tlb_dynamic_lb 1; bond97 mode "active-backup 1",
# primary_reselect "always 0", miimon 1000 and arp_missed_max 10 (which
# the kernel keeps without arp_interval); bond199's active slave is the
# one whose .network says ActiveSlave=yes, bond198's primary the one whose
# says PrimarySlave=yes.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
: "${BONDD_IMPORT:=$BUILD_DIR/src/bondd-import}"

N=$WORK/network
mkdir -p "$N/25-bond.netdev.d" "$N/25-bond99.network.d"
cat >"$N/25-bond.netdev" <<'F'
[NetDev]
Name=bond99
Kind=bond

[Bond]
Mode=802.3ad
TransmitHashPolicy=layer3+4
MIIMonitorSec=1s
LACPTransmitRate=fast
UpDelaySec=2s
DownDelaySec=2s
ResendIGMP=4
MinLinks=1
F
cat >"$N/25-bond.netdev.d/10-ad.conf" <<'F'
[Bond]
AdActorSystemPriority=1218
AdUserPortKey=811
AdActorSystem=00:11:22:33:44:55
F
cat >"$N/25-bond-balanced-tlb.netdev" <<'F'
[NetDev]
Name=bond98
Kind=bond

[Bond]
Mode=balance-tlb
DynamicTransmitLoadBalancing=true
F
cat >"$N/25-bond-property.netdev" <<'F'
[NetDev]
Name=bond97
Kind=bond

[Bond]
Mode=active-backup
PrimaryReselectPolicy=always
MIIMonitorSec=1s
ARPMissedMax=10
F
cat >"$N/25-bond99.network" <<'F'
[Match]
Name=bond99

[Network]
Address=192.168.10.1/24
F
cat >"$N/25-bond99.network.d/10-mac.conf" <<'F'
[Link]
MACAddress=02:00:00:00:99:01
F
cat >"$N/26-bond-slave.network" <<'F'
[Match]
Name=test1 dummy98

[Network]
Bond=bond99
ActiveSlave=yes
DHCP=yes
F
# test_bond_active_slave and test_bond_primary_slave: active-backup bonds
# whose second slave says ActiveSlave=yes, or PrimarySlave=yes.
for b in 199 198; do
	printf '[NetDev]\nName=bond%s\nKind=bond\n\n[Bond]\nMode=active-backup\n' "$b" \
		>"$N/25-bond-$b.netdev"
done
printf '[Match]\nName=test2\n\n[Network]\nBond=bond199\n' >"$N/30-test2.network"
printf '[Match]\nName=dummy97\n\n[Network]\nBond=bond199\nActiveSlave=yes\n' >"$N/31-dummy97.network"
printf '[Match]\nName=test3\n\n[Network]\nBond=bond198\n' >"$N/32-test3.network"
printf '[Match]\nName=dummy96\n\n[Network]\nBond=bond198\nPrimarySlave=yes\n' >"$N/33-dummy96.network"
"$BONDD_IMPORT" networkd "$N" >"$WORK/bondd.conf" || fail "bondd-import networkd exited with $?"
cat "$WORK/bondd.conf"
for want in "arp_missed_max = 10" "mac_address = 02:00:00:00:99:01" "ad_actor_sys_prio = 1218" \
	"# [Network] ActiveSlave=yes" "# not carried over: [Network] DHCP=yes"; do
	file_has "$WORK/bondd.conf" "$want" || fail "the import lacks \"$want\""
done
"$BONDD" --check --config "$WORK/bondd.conf" || fail "bondd --check refuses the import"

for l in test1 dummy98 test2 dummy97 test3 dummy96; do ip link add "$l" type dummy; done
start_bondd "$WORK/bondd.conf"
whole bond99 test1,dummy98 1500 >/dev/null
whole bond199 dummy97,test2 1500 >/dev/null
whole bond198 test3,dummy96 1500 >/dev/null

attr_is() { [[ $(sysval "/sys/class/net/$1/bonding/$2") == "$3" ]]; }
check_link_attr() { # LINK ATTR EXPECTED
	local got
	wait_until 3 attr_is "$1" "$2" "$3" || true
	got=$(sysval "/sys/class/net/$1/bonding/$2")
	assert_eq "$3" "$got" "$1 $2"
}
check_link_attr bond99 mode '802.3ad 4'
check_link_attr bond99 xmit_hash_policy 'layer3+4 1'
check_link_attr bond99 miimon 1000
check_link_attr bond99 lacp_rate 'fast 1'
check_link_attr bond99 updelay 2000
check_link_attr bond99 downdelay 2000
check_link_attr bond99 resend_igmp 4
check_link_attr bond99 min_links 1
check_link_attr bond99 ad_actor_sys_prio 1218
check_link_attr bond99 ad_user_port_key 811
check_link_attr bond99 ad_actor_system 00:11:22:33:44:55
check_link_attr bond98 mode 'balance-tlb 5'
check_link_attr bond98 tlb_dynamic_lb 1
check_link_attr bond97 mode 'active-backup 1'
check_link_attr bond97 primary_reselect 'always 0'
check_link_attr bond97 miimon 1000
check_link_attr bond97 arp_missed_max 10
check_link_attr bond199 active_slave dummy97
check_link_attr bond198 primary dummy96
assert_eq 02:00:00:00:99:01 "$(sysval /sys/class/net/bond99/address)" "bond99's MAC (the .network.d drop-in)"
wait_until 3 has_addr bond99 192.168.10.1/24 || fail "bond99 lacks 192.168.10.1/24"
echo "ok: networkd's bond99, bond98 and bond97 through bondd-import and bondd"
