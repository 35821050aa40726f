# SPDX-License-Identifier: MIT
# Behaviour 2: a slave's device is deleted and created again (new ifindex,
# MTU 1500, not enslaved: what a NIC reset or driver reload looks like).
# bondd puts it back at its configured place at MTU 9000.  The time from the
# new device's appearance to the bond being whole is measured from outside
# bondd, from the kernel's own events.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
old_index=$(sysval /sys/class/net/e2/ifindex)

for round in 1 2 3; do
	ip link del e2
	whole bond0 e1,e3,e4 9000 >/dev/null
	watch_start bond0 e1,e2,e3,e4 9000 --after-new e2
	ip link add e2 type veth peer name p2 netns "$PEER"
	ip -n "$PEER" link set p2 up
	watch_end
	echo "measured: round $round: bond0 whole ${REPAIR_MS} ms after the new e2 appeared"
	assert_within 1000 "round $round: re-enslaving the new e2"
done

[ "$(sysval /sys/class/net/e2/ifindex)" != "$old_index" ] || fail "e2 kept its ifindex: not re-created"
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
assert_eq 9000 "$(sysval /sys/class/net/e2/mtu)" "e2 mtu"

# Where the time goes: bondd's own timing of each request in the last repair.
for line in $(grep -n 'e2 disappeared' "$BONDD_LOG" | tail -n 1 | cut -d: -f1); do
	tail -n "+$line" "$BONDD_LOG" | grep -E 'took|apply' | sed 's/^/measured: /'
done
