# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond_lacp_strict.sh (upstream
# tools/testing/selftests/drivers/net/bonding/), rebuilt on bondd: the
# device under test is bond0 here, made by bondd from "mode 802.3ad miimon
# 100 lacp_rate fast min_links 1", its eth0 and eth1 through two bridges
# (namespace br) to a partner's kernel bond (namespace p); the bridges
# forward LACP (group_fwd_mask 4) until a step stops them.  Upstream's
# assertions, on a part of its sequence (to keep the suite short): both
# ports collecting and distributing and carrier up; with LACP stopped on
# both links, neither port collecting nor distributing, and carrier still
# up with lacp_strict off; lacp_strict on (a reload, in place) takes the
# carrier down; off again brings it up; LACP back, both ports collecting
# and distributing and carrier up.  Skips where the kernel has no
# lacp_strict.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

ip link add probe0 type bond mode 802.3ad
"$NLOPT" set probe0 lacp_strict 1 2>/dev/null ||
	skip "kernel $(uname -r) has no lacp_strict (Linux 7.x, 6.18 stable)"
ip link del probe0

P=$(peer_ns p)
BR=$(peer_ns br)
ip -n "$P" link add eth0 type veth peer name eth0 netns "$BR"
ip -n "$P" link add eth1 type veth peer name eth1 netns "$BR"
ip link add eth0 type veth peer name eth2 netns "$BR"
ip link add eth1 type veth peer name eth3 netns "$BR"
ip -n "$BR" -batch - <<IP
link add br0 type bridge stp_state 0
link add br1 type bridge stp_state 0
link set eth0 master br0
link set eth2 master br0
link set eth1 master br1
link set eth3 master br1
link set eth0 up
link set eth1 up
link set eth2 up
link set eth3 up
link set br0 up
link set br1 up
IP
fwd() { # BRIDGE PORT MASK
	ip netns exec "$BR" bash -c "echo $3 >/sys/class/net/$1/brif/$2/group_fwd_mask"
}
fwd br0 eth0 4; fwd br1 eth1 4; fwd br0 eth2 4; fwd br1 eth3 4
ip -n "$P" -batch - <<IP
link add bond0 type bond mode 802.3ad miimon 100 lacp_rate fast min_links 1
link set eth0 master bond0
link set eth1 master bond0
link set bond0 up
IP
conf() {
	cat <<CONF
[bond0]
mode = 802.3ad
miimon = 100
lacp_rate = fast
min_links = 1
lacp_strict = $1
mtu = 1500
slaves = eth0 eth1
CONF
}
conf off >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 eth0,eth1 1500 >/dev/null

CD=48 # collecting | distributing
# actor_state SLAVE: the actor port state /proc/net/bonding shows for SLAVE.
actor_state() {
	local line in=0 actor=0
	proc_bond bond0
	while IFS= read -r line; do
		[[ $line == "Slave Interface: "* ]] && { [[ $line == *": $1" ]] && in=1 || in=0; actor=0; }
		[[ $line == *"details actor lacp pdu:"* ]] && actor=1
		[[ $line == *"details partner lacp pdu:"* ]] && actor=0
		if ((in && actor)) && [[ $line == *"port state: "* ]]; then
			echo "${line##*: }"
			return 0
		fi
	done <<<"$PROC_BOND"
	echo 0
}
state_is() { # SLAVE EXPECTED
	local s
	s=$(actor_state "$1")
	(((s & CD) == $2))
}
expect() { # SLAVES EXPECTED SECONDS WHAT
	local sl
	for sl in $1; do
		wait_until "$3" state_is "$sl" "$2" ||
			fail "$4: $sl actor state $(actor_state "$sl"), expected collecting/distributing bits $2"
	done
}
carrier() { # up|down WHAT
	local c
	c=$(sysval /sys/class/net/bond0/carrier)
	[[ $c == 1 && $1 == up || $c == 0 && $1 == down ]] || fail "$2: expected carrier $1, got $c"
}
expect "eth0 eth1" $CD 10 "initial state"
carrier up "lacp_strict off, eth0 and eth1 up"
echo "ok: lacp_strict off - eth0 and eth1 up"
fwd br0 eth0 0; fwd br0 eth2 0; fwd br1 eth1 0; fwd br1 eth3 0
expect "eth0 eth1" 0 6 "LACP stopped"
carrier up "lacp_strict off, eth0 and eth1 stopped sending LACP"
echo "ok: lacp_strict off - eth0 and eth1 stopped sending LACP"
conf on >"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "the reload to lacp_strict on was refused"; }
wait_until 3 eval '[[ $(sysval /sys/class/net/bond0/carrier) == 0 ]]' || true
expect "eth0 eth1" 0 1 "lacp_strict on"
carrier down "lacp_strict on, eth0 and eth1 stopped sending LACP"
echo "ok: lacp_strict on - eth0 and eth1 stopped sending LACP"
conf off >"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "the reload to lacp_strict off was refused"; }
wait_until 3 eval '[[ $(sysval /sys/class/net/bond0/carrier) == 1 ]]' || true
carrier up "lacp_strict off again, LACP still stopped"
echo "ok: lacp_strict off - eth0 and eth1 stopped sending LACP"
fwd br0 eth0 4; fwd br0 eth2 4; fwd br1 eth1 4; fwd br1 eth3 4
expect "eth0 eth1" $CD 60 "LACP recovered"
carrier up "lacp_strict off, eth0 and eth1 recovered LACP"
echo "ok: lacp_strict off - eth0 and eth1 recovered LACP"
