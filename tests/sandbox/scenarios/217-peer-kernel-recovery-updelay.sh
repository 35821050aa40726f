# SPDX-License-Identifier: MIT
# The kernel's bonding selftests mode-1-recovery-updelay.sh and
# mode-2-recovery-updelay.sh (upstream tools/testing/selftests/drivers/net/
# bonding/, with lag_lib.sh), rebuilt on bondd: a bond of two ports to a
# bridge "switch" (172.20.2.2), made by bondd from "mode M miimon 100
# updelay U" for M = 1, 2 and U = 0, 200, 500, 1000, 2000, 5000, 10000.
# Upstream's assertions: the client reaches the switch; after the switch
# port of eth0 flaps (down 2 s, up) and the port of eth1 goes down, the
# bond recovers at once whatever the updelay (bonding.rst 13.1: with no
# slave up, the bond takes one without waiting), checked with "ping -c 2"
# (here: one reply within 2 s).  The flap lasts 0.5 s here, not 2, to keep
# the suite short.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"

CLIENTIP=172.20.2.1 SWITCHIP=172.20.2.2
SW=$(peer_ns switch)
ip link add eth0 type veth peer name eth0 netns "$SW"
ip link add eth1 type veth peer name eth1 netns "$SW"
ip -n "$SW" -batch - <<IP
link add br0 type bridge
link set br0 up
link set eth0 master br0
link set eth1 master br0
link set eth0 up
link set eth1 up
addr add $SWITCHIP/24 dev br0
IP

is_set() { # MODE UPDELAY: the kernel's bond0 has them
	[[ $(sysval /sys/class/net/bond0/bonding/updelay) == "$2" &&
		$(sysval /sys/class/net/bond0/bonding/mode) == *" $1" ]]
}
test_bond_recovery() { # MODE UPDELAY
	cat >"$WORK/bondd.conf" <<CONF
[bond0]
mode = $1
miimon = 100
updelay = $2
mtu = 1500
slaves = eth0 eth1
address = $CLIENTIP/24
CONF
	# One bond made by bondd, then each case by a reload (a mode change
	# re-builds it, an updelay is changed in place).
	if [ -z "$BONDD_PID" ]; then
		start_bondd "$WORK/bondd.conf"
	else
		status --reload >/dev/null || { show_log; fail "mode $1 updelay $2: reload refused"; }
	fi
	wait_until 5 is_set "$1" "$2" ||
		fail "mode $1 updelay $2: the kernel has $(sysval /sys/class/net/bond0/bonding/mode) updelay $(sysval /sys/class/net/bond0/bonding/updelay)"
	whole bond0 eth0,eth1 1500 >/dev/null
	reach_within 5 "$SWITCHIP" || fail "mode $1 updelay $2: no connectivity"
	ip -n "$SW" link set eth0 down
	nap 0.5
	ip -n "$SW" link set eth0 up
	ip -n "$SW" link set eth1 down
	reach "$SWITCHIP" 20 || { show_log; fail "mode $1 updelay $2: bond failed to recover"; }
	echo "ok: mode $1 updelay $2: bond recovery"
	ip -n "$SW" link set eth0 up
	ip -n "$SW" link set eth1 up
}
for mode in 1 2; do
	for updelay in 0 200 500 1000 2000 5000 10000; do
		test_bond_recovery "$mode" "$updelay"
	done
done
