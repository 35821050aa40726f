# SPDX-License-Identifier: MIT
# Issue 12, order where it matters: an 802.3ad bond with a real LACP
# partner (a bond in the peer namespace) and an active-backup bond.  A port
# re-created and a backup re-added simply join: the bonds never lose
# carrier, the active slave stays active, no healthy slave is released.
# balance-rr (keep_order yes by default) still restores the order.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 8
# The LACP partner: p1-p3 in one 802.3ad bond on the far side.
ip -n "$PEER" -batch - <<'BATCH'
link add plag type bond mode 802.3ad miimon 100 lacp_rate fast
link set p1 down
link set p2 down
link set p3 down
link set p1 master plag
link set p2 master plag
link set p3 master plag
link set plag up
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[lag0]
mode = 802.3ad
miimon = 100
lacp_rate = fast
slaves = e1 e2 e3
[ab0]
mode = active-backup
miimon = 100
primary = e5
slaves = e4 e5
[rr0]
miimon = 100
slaves = e6 e7 e8
CONF
start_bondd "$WORK/bondd.conf"
whole lag0 e1,e2,e3 9000 >/dev/null
whole ab0 e4,e5 9000 >/dev/null
whole rr0 e6,e7,e8 9000 >/dev/null

# lag0 aggregated with its partner: every port in one aggregator, partner
# known.  $1: the ports.
aggregated() {
	local block agg="" n=0 want=$1 line
	proc_bond lag0
	while IFS= read -r line; do
		case $line in
		"Slave Interface: "*) block=${line#Slave Interface: } ;;
		*"Aggregator ID: "*)
			[[ -n ${block:-} ]] || continue
			[[ -z $agg || $agg == "${line##*: }" ]] || return 1
			agg=${line##*: }
			n=$((n + 1))
			;;
		*"Partner Mac Address: 00:00:00:00:00:00"*) return 1 ;;
		esac
	done <<<"$PROC_BOND"
	[[ $n -eq $want ]]
}
carrier_of() { sysval "/sys/class/net/$1/carrier"; }
wait_until 15 aggregated 3 || { cat /proc/net/bonding/lag0; fail "lag0 did not aggregate with its partner"; }
wait_until 5 eval '[ "$(sysval /sys/class/net/ab0/bonding/active_slave)" = e5 ]' ||
	fail "e5 did not become ab0's active slave"
assert_eq 1 "$(carrier_of lag0)" "lag0 carrier"
lag_changes=$(sysval /sys/class/net/lag0/carrier_changes)
ab_changes=$(sysval /sys/class/net/ab0/carrier_changes)
releases=$(log_count "apply: release")

# 802.3ad: port 1 re-created (a NIC reset), on both sides.
ip link del e1
whole lag0 e2,e3 9000 >/dev/null
ip link add e1 type veth peer name p1 netns "$PEER"
ip -n "$PEER" link set p1 master plag
whole lag0 e2,e3,e1 9000
wait_until 15 aggregated 3 || { cat /proc/net/bonding/lag0; fail "e1 did not rejoin the aggregator"; }

# active-backup: the backup e4 released by hand and re-added by bondd.
ip link set e4 nomaster
whole ab0 e5,e4 9000

# balance-rr: order still restored.
ip link del e6
whole rr0 e7,e8 9000 >/dev/null
ip link add e6 type veth peer name p6 netns "$PEER"
ip -n "$PEER" link set p6 up
whole rr0 e6,e7,e8 9000

assert_eq "$lag_changes" "$(sysval /sys/class/net/lag0/carrier_changes)" "lag0 carrier_changes"
assert_eq "$ab_changes" "$(sysval /sys/class/net/ab0/carrier_changes)" "ab0 carrier_changes"
assert_eq e5 "$(sysval /sys/class/net/ab0/bonding/active_slave)" "ab0 active slave"
for s in e2 e3 e5; do
	assert_eq 0 "$(log_count "apply: release $s ")" "releases of the healthy $s"
done
# rr0's order costs two releases (e7, e8); lag0 and ab0 none.
assert_eq $((releases + 2)) "$(log_count "apply: release")" "releases in all"
[ "$(log_count "joins at the end (keep_order no)")" -ge 2 ] ||
	{ show_log; fail "the joins were not logged"; }
echo "measured: lag0 carrier_changes $lag_changes -> $(sysval /sys/class/net/lag0/carrier_changes)," \
	"ab0 $ab_changes -> $(sysval /sys/class/net/ab0/carrier_changes)"
