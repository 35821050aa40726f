# SPDX-License-Identifier: MIT
# The kernel's bonding selftest dev_addr_lists.sh (upstream
# tools/testing/selftests/drivers/net/bonding/, with lag_lib.sh's
# test_LAG_cleanup), rebuilt on bondd.  Cleanup, in active-backup and in
# 802.3ad: bond1 of dummy1 and dummy2 made by bondd, a macvlan mv0
# (02:00:00:12:34:56) on it and fe80::78:9abc/64 on bond1 (an address line
# of bondd.conf); the macvlan's address and the IPv6 solicited-node
# multicast address 33:33:ff:78:9a:bc reach a slave's address lists; once
# the bond is deleted (state = absent and a reload, where upstream runs
# "ip link del") neither is left on any device.  LACPDU multicast: an
# 802.3ad bond1 of dummy1 puts 01:80:c2:00:00:02 on dummy1 whether the
# bond was down when the slave joined (bondd's start) or up (dummy1 made
# after bondd started); bond1 down removes it, up puts it back (bondd
# stopped for those two steps: it would bring the bond back up).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
PEER_BONDS=bond1
ucaddr=02:00:00:12:34:56 mcaddr=33:33:ff:78:9a:bc lacpdu_mc=01:80:c2:00:00:02
echo 0 >/proc/sys/net/ipv6/conf/default/accept_dad

fdb_has() { # ADDR [bridge fdb show ARGS]
	local addr=$1
	shift
	[[ $(bridge fdb show "$@") == *"$addr "* ]]
}
conf() { # MODE STATE SLAVES
	cat <<CONF
[bond1]
mode = $1
miimon = 100
state = $2
mtu = 1500
slaves = $3
address = fe80::78:9abc/64
CONF
}

lag_cleanup() { # MODE
	ip link add dummy1 type dummy
	ip link add dummy2 type dummy
	conf "$1" present "dummy1 dummy2" >"$WORK/bondd.conf"
	peer_bond "$WORK/bondd.conf"
	whole bond1 dummy1,dummy2 1500 >/dev/null
	ip link add mv0 link bond1 up address "$ucaddr" type macvlan
	{ fdb_has "$ucaddr" dev dummy1 || fdb_has "$ucaddr" dev dummy2; } ||
		fail "$1: macvlan unicast address not found on a slave"
	sol() { fdb_has "$mcaddr" dev dummy1 || fdb_has "$mcaddr" dev dummy2; }
	wait_until 10 sol || fail "$1: IPv6 solicited-node multicast mac address not found on a slave"
	conf "$1" absent "dummy1 dummy2" >"$WORK/bondd.conf"
	status --reload >/dev/null || { show_log; fail "$1: the reload deleting bond1 was refused"; }
	gone() { [ ! -e /sys/class/net/bond1 ]; }
	wait_until 5 gone || fail "$1: bond1 was not deleted"
	if fdb_has "$ucaddr"; then fail "$1: macvlan unicast address still present on a slave"; fi
	if fdb_has "$mcaddr"; then fail "$1: IPv6 solicited-node multicast mac address still present on a slave"; fi
	stop_bondd
	ip link del dummy1
	ip link del dummy2
	echo "ok: bonding cleanup mode $1"
}
lag_cleanup active-backup
lag_cleanup 802.3ad

lacpdu_mc() { # down|up: the bond's state when dummy1 joins
	cat >"$WORK/bondd.conf" <<CONF
[bond1]
mode = 802.3ad
mtu = 1500
slaves = dummy1
CONF
	if [[ $1 == down ]]; then
		ip link add dummy1 type dummy
		peer_bond "$WORK/bondd.conf"
	else
		peer_bond "$WORK/bondd.conf"
		up() { [[ $(sysval /sys/class/net/bond1/operstate) != "" ]] &&
			(($(sysval /sys/class/net/bond1/flags) & 1)); }
		wait_until 5 up || fail "bond1 is not up before dummy1 joins"
		ip link add dummy1 type dummy
	fi
	whole bond1 dummy1 1500 >/dev/null
	fdb_has "$lacpdu_mc" brport dummy1 || fail "from bond $1: LACPDU multicast address not present on slave (1)"
	stop_bondd
	ip link set dev bond1 down
	if fdb_has "$lacpdu_mc" brport dummy1; then
		fail "from bond $1: LACPDU multicast address still present on slave"
	fi
	ip link set dev bond1 up
	fdb_has "$lacpdu_mc" brport dummy1 || fail "from bond $1: LACPDU multicast address not present on slave (2)"
	ip link del bond1
	ip link del dummy1
	echo "ok: bonding LACPDU multicast address to slave (from bond $1)"
}
lacpdu_mc down
lacpdu_mc up
