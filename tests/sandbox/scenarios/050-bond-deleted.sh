# SPDX-License-Identifier: MIT
# Behaviour 5: the bond deleted by hand is created again with everything:
# mode, options, MTU, slaves in order, address.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-xor
xmit_hash_policy = layer3+4
miimon = 100
updelay = 200
mtu = 9000
slaves = e1 e2 e3 e4
address = 10.77.0.1/24
address = fd00:77::1/64
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
old_index=$(sysval /sys/class/net/bond0/ifindex)

ip link del bond0
whole_within 1000 bond0 e1,e2,e3,e4 9000
echo "measured: bond0 whole again within ${REPAIR_MS} ms"

[ "$(sysval /sys/class/net/bond0/ifindex)" != "$old_index" ] || fail "bond0 was not re-created"
assert_eq "balance-xor 2" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode"
assert_eq "layer3+4 1" "$(sysval /sys/class/net/bond0/bonding/xmit_hash_policy)" "xmit_hash_policy"
assert_eq "200" "$(sysval /sys/class/net/bond0/bonding/updelay)" "updelay"
wait_until 5 has_addr bond0 10.77.0.1/24 || fail "IPv4 address missing"
wait_until 5 has_addr bond0 fd00:77::1/64 || fail "IPv6 address missing"
