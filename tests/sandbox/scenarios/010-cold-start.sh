# SPDX-License-Identifier: MIT
# Behaviour 1: cold start.  The bond is created with its options, the slaves
# that exist are enslaved in order, MTU 9000 on bond and slaves, bond up,
# address added; a slave that does not exist yet joins at its place when it
# appears.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2 1          # e1 e2
nics 1 4          # e4; e3 does not exist yet
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e4 9000 >/dev/null

assert_eq "balance-rr 0" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode"
assert_eq "100" "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon"
for i in e1 e2 e4; do
	assert_eq 9000 "$(sysval /sys/class/net/$i/mtu)" "$i mtu"
done
ip -4 -o addr show dev bond0 | grep -q 'inet 10.77.0.1/24' || fail "address missing"

# e3 appears: it joins between e2 and e4.
nics 1 3
whole_within 1000 bond0 e1,e2,e3,e4 9000
echo "measured: e3 in place within ${REPAIR_MS} ms"
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
assert_eq 9000 "$(sysval /sys/class/net/e3/mtu)" "e3 mtu"
grep -q "^Bonding Mode: load balancing (round-robin)" /proc/net/bonding/bond0 || fail "mode in /proc"
