# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Helpers for the peers' suites (scenarios 21*): the kernel's own bonding
# selftests (tools/testing/selftests/drivers/net/bonding/) and systemd's
# networkd bond tests (test/test-network), rebuilt on bondd: each upstream
# "ip link add ... type bond PARAMS" is a bondd.conf that bondd applies,
# and the upstream assertions are checked as the peers wrote them.  Fixed
# upstream sleeps before a check become waits with a deadline.  On top of
# lib.sh and bondd-lib.sh.

PINGCHECK=$BUILD_DIR/tests/sandbox/pingcheck
FRAME_COUNT=$LIB_DIR/frame-count.py

# peer_bond CONF: (re)starts bondd on CONF, the bond made from nothing (a
# bond of an earlier case, or any link bondd did not make, deleted first,
# as the upstream bond_reset deletes bond0 before it adds it again).
peer_bond() {
	local conf=$1 bond
	stop_bondd
	for bond in ${PEER_BONDS:-bond0}; do
		[ ! -e "/sys/class/net/$bond" ] || ip link del "$bond"
	done
	start_bondd "$conf"
}

# reach [NS] ADDR [COUNT]: ping(8)'s verdict (one reply of COUNT, 100 ms
# apart), from namespace NS or here.
reach() {
	if [[ $# -ge 2 && $1 != *[.:]* ]]; then
		ip netns exec "$1" "$PINGCHECK" "${@:2}"
	else
		"$PINGCHECK" "$@"
	fi
}

# reach_within SECONDS [NS] ADDR: reach, tried until SECONDS have passed
# (the upstream check sleeps 2 s, then pings 5 times).
reach_within() {
	local limit=$1
	shift
	wait_until "$limit" reach "$@" 3
}

# active_slave BOND: the kernel's current active slave.
active_slave() { sysval "/sys/class/net/$1/bonding/active_slave"; }

# mii_status SLAVE: "up" or "down" as the kernel reports it.
mii_status() { sysval "/sys/class/net/$1/bonding_slave/mii_status"; }
