# SPDX-License-Identifier: MIT
# Behaviour 4: a slave released by hand (ip link set X nomaster) is taken
# back at its place: the slaves after it are released and enslaved again.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

for victim in e2 e1 e4; do
	ip link set "$victim" nomaster
	whole_within 1000 bond0 e1,e2,e3,e4 9000
	echo "measured: $victim back in bond0 within ${REPAIR_MS} ms"
done
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
for i in e1 e2 e3 e4; do
	assert_eq 9000 "$(sysval /sys/class/net/$i/mtu)" "$i mtu"
	grep -q "^Slave Interface: $i\$" /proc/net/bonding/bond0 || fail "$i not in /proc"
done
