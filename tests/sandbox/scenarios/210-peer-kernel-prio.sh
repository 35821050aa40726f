# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond_options.sh, "prio" (upstream
# tools/testing/selftests/drivers/net/bonding/bond_options.sh with
# bond_topo_3d1c.sh), rebuilt on bondd: three ports eth0..eth2 of bond0
# through a bridge (gateway 192.0.2.254) to a client (192.0.2.10); bond0
# made by bondd from "mode M miimon 100 primary eth1 primary_reselect R",
# the slaves' prio 0, 10, 11 as slave.NAME.prio.  Upstream's assertions:
# the prios as set; the primary active; on its failure the higher prio
# slave, then the last one; what each primary_reselect does when a higher
# prio slave and the primary come back; with reselect 0, prios changed to
# 1000000, 0, -50 (here by a reload, in place) keep the primary and pick
# eth0 after it.  Upstream's fixed "sleep 2" before each check is a wait
# with a deadline here; an active slave found is checked again a miimon
# period later.  Every check of the connection pings the client over
# IPv4 and IPv6, as upstream does.  Skips where the kernel has no prio.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

s_ip4=192.0.2.1 c_ip4=192.0.2.10 g_ip4=192.0.2.254
s_ip6=2001:db8::1 c_ip6=2001:db8::10 g_ip6=2001:db8::254
echo 0 >/proc/sys/net/ipv6/conf/default/accept_dad
echo 0 >/proc/sys/net/ipv6/conf/all/accept_dad
G=$(peer_ns g)
C=$(peer_ns c)
ip -n "$G" -batch - <<IP
link add br0 type bridge
link set br0 up
addr add $g_ip4/24 dev br0
addr add $g_ip6/24 dev br0 nodad
link add c0 type veth peer name eth0 netns $C
link set c0 master br0
link set c0 up
IP
ip -n "$C" -batch - <<IP
link set eth0 up
addr add $c_ip4/24 dev eth0
addr add $c_ip6/24 dev eth0 nodad
IP
for i in 0 1 2; do
	ip link add "eth$i" type veth peer name "s$i" netns "$G"
	ip -n "$G" link set "s$i" master br0
	ip -n "$G" link set "s$i" up
done

# Does this kernel have the slave prio (6.0)? Asked of a throwaway bond.
ip link add probe0 type bond mode active-backup
ip link add pr0 type dummy
ip link set pr0 master probe0
[[ $("$NLOPT" get pr0) == *"prio "* ]] || skip "kernel $(uname -r) has no bond slave prio"
ip link del probe0
ip link del pr0

conf() { # MODE MONITOR RESELECT PRIO0 PRIO1 PRIO2
	cat <<CONF
[bond0]
mode = $1
$2
primary = eth1
primary_reselect = $3
mtu = 1500
slaves = eth0 eth1 eth2
slave.eth0.prio = $4
slave.eth1.prio = $5
slave.eth2.prio = $6
address = $s_ip4/24
address = $s_ip6/24
CONF
}

check_connection() {
	reach_within 5 "$c_ip4" || { show_log; fail "$CASE: $1: ping failed"; }
	reach_within 5 "$c_ip6" || { show_log; fail "$CASE: $1: ping6 failed"; }
}
active_is() { [[ $(active_slave bond0) == "$1" ]]; }
# check_active SLAVE: the kernel's active slave is SLAVE (and stays it).
check_active() {
	wait_until 3 active_is "$1" || { show_log; fail "$CASE: current active slave is $(active_slave bond0) but not $1"; }
	nap 0.15 # more than a miimon period: it stays
	active_is "$1" || fail "$CASE: current active slave is $(active_slave bond0) but not $1"
	active=$1
}
slave_prio() { [[ $("$NLOPT" get "$1") == *"prio $2"* ]] || fail "$CASE: $1 prio is not $2"; }

prio_test() { # MODE MONITOR RESELECT
	local mode=$1 mon=$2 reselect=$3 pre
	CASE="$mode ${mon%% *} primary_reselect $reselect"
	ip link set eth0 up
	ip link set eth1 up
	ip link set eth2 up
	conf "$mode" "$mon" "$reselect" 0 10 11 >"$WORK/bondd.conf"
	peer_bond "$WORK/bondd.conf"
	whole bond0 eth0,eth1,eth2 1500 >/dev/null
	slave_prio eth0 0
	slave_prio eth1 10
	slave_prio eth2 11
	check_connection setup
	check_active eth1            # the primary
	ip link set "$active" down
	check_connection "fail over"
	check_active eth2            # the higher prio slave
	ip link set "$active" down
	check_connection "only 1 slave up"
	check_active eth0
	ip link set eth2 up
	check_connection "higher prio slave up"
	case $reselect in
	0) check_active eth2 ;;
	1 | 2) check_active eth0 ;;
	esac
	pre=$active
	ip link set eth1 up
	check_connection "primary slave up"
	case $reselect in
	0) check_active eth1 ;;
	1) check_active "$pre" ;;
	2)
		check_active "$pre"
		ip link set "$active" down
		check_connection "pre_active slave down"
		check_active eth1
		;;
	esac
	if [[ $reselect == 0 ]]; then
		conf "$mode" "$mon" "$reselect" 1000000 0 -50 >"$WORK/bondd.conf"
		status --reload >/dev/null || { show_log; fail "$CASE: reload with new prios refused"; }
		wait_until 3 eval '[[ $("$NLOPT" get eth0) == *"prio 1000000"* ]]' || true
		slave_prio eth0 1000000
		slave_prio eth1 0
		slave_prio eth2 -50
		check_active eth1
		ip link set "$active" down
		check_connection "change slave prio"
		check_active eth0
	fi
	echo "ok: prio $CASE"
}

# Upstream's matrix is every primary_reselect in each of the three modes
# with miimon, and in active-backup with the ARP and NS monitors: here
# every primary_reselect in active-backup and reselect 0 in balance-tlb and
# balance-alb, with miimon, to keep the suite short (the ARP monitor is
# 211's; at arp_interval 100 a busy guest misses replies and fails over on
# its own).
prio_test active-backup "miimon = 100" 0
prio_test active-backup "miimon = 100" 1
prio_test active-backup "miimon = 100" 2
prio_test balance-tlb "miimon = 100" 0
prio_test balance-alb "miimon = 100" 0
