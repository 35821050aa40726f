# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond-arp-interval-causes-panic.sh (upstream
# tools/testing/selftests/drivers/net/bonding/), rebuilt on bondd: a bond of
# one port, first "mode 1 miimon 100 all_slaves_active 1", then (a reload:
# bondd releases the port, takes the bond down and makes it again)
# "mode 0 arp_interval 1000 arp_ip_target 192.168.1.254".  Upstream's
# assertions: "ping -c 5" to the server works before and after, and the
# kernel lives (the bug oopsed in bond_rr_gen_slave_id).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"

client_ip4=192.168.1.198 server_ip4=192.168.1.254
S=$(peer_ns server)
ip link add eth0 type veth peer name eth0 netns "$S"
ip -n "$S" link set eth0 up
ip -n "$S" addr add "$server_ip4/24" dev eth0

cat >"$WORK/bondd.conf" <<CONF
[bond0]
mode = 1
miimon = 100
all_slaves_active = 1
mtu = 1500
slaves = eth0
address = $client_ip4/24
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 eth0 1500 >/dev/null
reach_within 5 "$server_ip4" || fail "ping in mode 1 failed"
cat >"$WORK/bondd.conf" <<CONF
[bond0]
mode = 0
arp_interval = 1000
arp_ip_target = $server_ip4
mtu = 1500
slaves = eth0
address = $client_ip4/24
CONF
status --reload >/dev/null || { show_log; fail "the reload to mode 0 with arp_interval was refused"; }
wait_until 5 eval '[[ $(sysval /sys/class/net/bond0/bonding/mode) == "balance-rr 0" ]]' ||
	fail "bond0 is not in balance-rr"
whole bond0 eth0 1500 >/dev/null
assert_eq 1000 "$(sysval /sys/class/net/bond0/bonding/arp_interval)" "arp_interval"
reach_within 5 "$server_ip4" || { show_log; fail "ping in mode 0 with arp_interval failed"; }
echo "ok: mode 1 then mode 0 with arp_interval 1000: ping works, no oops"
