# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond_lacp_prio.sh (upstream
# tools/testing/selftests/drivers/net/bonding/), rebuilt on bondd: the
# client's bond0 of eth0..eth3, made by bondd from "mode 802.3ad miimon 100
# lacp_rate fast ad_select actor_port_prio", eth0 and eth1 to one 802.3ad
# partner (namespace s), eth2 and eth3 to another (namespace b), so the
# client has two aggregators.  The partners are plain kernel bonds, as
# upstream.  Upstream's assertions: actor_port_prio 1000 on eth0 and 10 on
# eth2 (slave.NAME.actor_port_prio) are what the kernel reports; after a
# link change (eth1 down, up) the bond's active aggregator is eth0's (the
# aggregator whose ports' priorities add up to the highest sum); with the
# priorities swapped (a reload, in place) it is eth2's.  Skips where the
# kernel lacks ad_select = actor_port_prio (6.18; Debian's 6.1.176 too).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

ip link add probe0 type bond mode 802.3ad
"$NLOPT" set probe0 ad_select 3 2>/dev/null ||
	skip "kernel $(uname -r) has no ad_select actor_port_prio (Linux 6.18 and later)"
ip link del probe0

S=$(peer_ns s)
B=$(peer_ns b)
ip link add eth0 type veth peer name eth0 netns "$S"
ip link add eth1 type veth peer name eth1 netns "$S"
ip link add eth2 type veth peer name eth0 netns "$B"
ip link add eth3 type veth peer name eth1 netns "$B"
for ns in "$S" "$B"; do
	ip -n "$ns" -batch - <<IP
link add bond0 type bond mode 802.3ad miimon 100 lacp_rate fast
link set eth0 master bond0
link set eth1 master bond0
link set bond0 up
IP
done
conf() {
	cat <<CONF
[bond0]
mode = 802.3ad
miimon = 100
lacp_rate = fast
ad_select = actor_port_prio
mtu = 1500
slaves = eth0 eth1 eth2 eth3
slave.eth0.actor_port_prio = $1
slave.eth2.actor_port_prio = $2
CONF
}
conf 1000 10 >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 eth0,eth1,eth2,eth3 1500 >/dev/null
prio() { [[ $("$NLOPT" get "$1") == *"actor_port_prio $2"* ]]; }
prio eth0 1000 || fail "eth0 actor_port_prio is not 1000"
prio eth2 10 || fail "eth2 actor_port_prio is not 10"
echo "ok: actor_port_prio setting"

# agg_of SLAVE: the aggregator id /proc/net/bonding shows for SLAVE, or for
# the bond's active aggregator with "active".
agg_of() {
	local line in=0 active=0
	proc_bond bond0
	while IFS= read -r line; do
		[[ $line == "Active Aggregator Info:" ]] && active=1
		[[ $line == "Slave Interface: $1" ]] && in=1
		if [[ $line == *"Aggregator ID: "* ]] && { ((in)) || [[ $1 == active && $active == 1 ]]; }; then
			echo "${line##*: }"
			return 0
		fi
	done <<<"$PROC_BOND"
}
test_agg_reselect() {
	ip link set eth1 down
	nap 0.5
	ip link set eth1 up
	nap 0.5
	same() { [[ -n $(agg_of active) && $(agg_of active) == "$(agg_of "$1")" ]]; }
	wait_until 5 same "$1" ||
		fail "active aggregator $(agg_of active) is not $1's ($(agg_of "$1"))"
}
test_agg_reselect eth0
echo "ok: actor_port_prio select"
conf 10 1000 >"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "the reload swapping the priorities was refused"; }
wait_until 5 prio eth2 1000 || fail "eth2 actor_port_prio is not 1000 after the reload"
test_agg_reselect eth2
echo "ok: actor_port_prio switch"
