# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond_options.sh, "arp_validate" and
# "num_grat_arp" (upstream tools/testing/selftests/drivers/net/bonding/
# bond_options.sh on bond_topo_3d1c.sh), rebuilt on bondd: three ports of
# an active-backup bond0 through a bridge to the gateway 192.0.2.254.
# arp_validate: "mode active-backup arp_interval 100 arp_ip_target
# 192.0.2.254 arp_validate V" and the same with "ns_ip6_target
# 2001:db8::254" for V = 0..6 (one bond made by bondd, each next value by
# a reload, in place): the connection works and every slave's
# MII status is UP (upstream samples after 5 s; here once all are UP
# within 5 s, and again a moment later).  num_grat_arp: "mode
# active-backup miimon 100 num_grat_arp N peer_notify_delay D": after the
# active slave is set down, exactly N gratuitous ARPs arrive on the new
# active slave's bridge port (upstream counts them with a tc flower filter
# and N = 10, 20, 30, 50 at D = 1000 ms; here a packet socket counts them,
# N = 3 at D = 1000 ms, to keep the suite short; the count ends 1.5 s after
# the N-th, or after 3 N D + 3 s.  At D = 500 this guest saw N - 1 now and
# then: bond_should_notify_peers skips a tick while the slave's linkwatch
# event is pending, and the busy guest's ticks run late).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"

s_ip4=192.0.2.1 g_ip4=192.0.2.254 s_ip6=2001:db8::1 g_ip6=2001:db8::254
echo 0 >/proc/sys/net/ipv6/conf/default/accept_dad
echo 0 >/proc/sys/net/ipv6/conf/all/accept_dad
G=$(peer_ns g)
ip -n "$G" -batch - <<IP
link add br0 type bridge
link set br0 up
addr add $g_ip4/24 dev br0
addr add $g_ip6/24 dev br0 nodad
IP
for i in 0 1 2; do
	ip link add "eth$i" type veth peer name "s$i" netns "$G"
	ip -n "$G" link set "s$i" master br0
	ip -n "$G" link set "s$i" up
done

arp_conf() { # VALUE TARGET_LINE
	cat <<CONF
[bond0]
mode = active-backup
arp_interval = 100
$2
arp_validate = $1
mtu = 1500
slaves = eth0 eth1 eth2
address = $s_ip4/24
address = $s_ip6/24
CONF
}
all_up() {
	local i
	for i in 0 1 2; do [[ $(mii_status "eth$i") == up ]] || return 1; done
}
arp_validate_test() { # VALUE TARGET_LINE KIND
	local val=$1
	arp_conf "$val" "$2" >"$WORK/bondd.conf"
	if ((val == 0)); then
		peer_bond "$WORK/bondd.conf"
		whole bond0 eth0,eth1,eth2 1500 >/dev/null
	else
		status --reload >/dev/null || { show_log; fail "arp_validate $val: reload refused"; }
	fi
	want=$(sysval /sys/class/net/bond0/bonding/arp_validate)
	[[ $want == *" $val" ]] || fail "arp_validate $val: the kernel has \"$want\""
	reach_within 5 "$g_ip4" || fail "$3 arp_validate $val: ping failed"
	wait_until 5 all_up ||
		fail "$3 arp_validate $val: mii_status eth0 $(mii_status eth0) eth1 $(mii_status eth1) eth2 $(mii_status eth2)"
	nap 0.3
	all_up || fail "$3 arp_validate $val: a slave went down: eth0 $(mii_status eth0) eth1 $(mii_status eth1) eth2 $(mii_status eth2)"
	echo "ok: $3 arp_validate $val: every slave UP"
}
for val in 0 1 2 3 4 5 6; do
	arp_validate_test "$val" "arp_ip_target = $g_ip4" arp_ip_target
done
# arp_validate_ns: the NS monitor's targets (ns_ip6_target, Linux 6.0).
stop_bondd
for val in 0 1 2 3 4 5 6; do
	arp_validate_test "$val" "ns_ip6_target = $g_ip6" ns_ip6_target
done

garp_test() { # NUM DELAY
	local num=$1 delay=$2 port count
	cat >"$WORK/bondd.conf" <<CONF
[bond0]
mode = active-backup
miimon = 100
num_grat_arp = $num
peer_notif_delay = $delay
mtu = 1500
slaves = eth0 eth1 eth2
address = $s_ip4/24
CONF
	ip link set eth0 up
	peer_bond "$WORK/bondd.conf"
	whole bond0 eth0,eth1,eth2 1500 >/dev/null
	reach_within 5 "$g_ip4" || fail "num_grat_arp $num: ping failed"
	[[ $(active_slave bond0) == eth0 ]] || fail "num_grat_arp $num: eth0 is not the active slave"
	# The next active slave is eth1 (bond order); count on its port.
	ip netns exec "$G" python3 "$FRAME_COUNT" s1 $((num * delay * 3 / 1000 + 3)) garp "$s_ip4" "$num" \
		>"$WORK/garp.out" &
	local counter=$!
	wait_until 5 file_has "$WORK/garp.out" ready || fail "the counter did not start"
	ip link set eth0 down
	wait "$counter"
	[[ $(active_slave bond0) == eth1 ]] || fail "num_grat_arp $num: eth1 did not take over"
	mapfile -t out <"$WORK/garp.out"
	count=${out[-1]:-}
	assert_eq "$num" "$count" "gratuitous ARPs on the active slave eth1 with num_grat_arp $num"
	echo "ok: num_grat_arp $num: $count garp packets on the new active slave"
}
garp_test 3 1000
