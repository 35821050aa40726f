# SPDX-License-Identifier: MIT
# primary = mac:... (bondd.conf(5)): the kernel is given the slave's name
# of today.  Renamed while enslaved, the primary stays the primary (the
# kernel forgets a renamed primary: drivers/net/bonding/bond_main.c
# bond_slave_netdev_event, NETDEV_CHANGENAME), with no release and no
# enslave.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/vec-lib.sh"

vec_take 1 s-one 2 s-two
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = active-backup
miimon = 100
mtu = 1500
slaves = mac:$(vec_perm 1) mac:$(vec_perm 2)
primary = mac:$(vec_perm 2)
slave.mac:$(vec_perm 2).prio = 7
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 s-one,s-two 1500 >/dev/null
assert_eq s-two "$(sysval /sys/class/net/bond0/bonding/primary)" "the primary"
[[ $(ip -d link show dev s-two) == *" prio 7 "* ]] || fail "slave.mac:...prio was not set on s-two"
wait_until 5 file_has /sys/class/net/bond0/bonding/active_slave s-two ||
	fail "s-two is not the active slave"

releases=$(log_count "apply: release")
enslaves=$(log_count "apply: enslave")
ip -batch - <<<"link set s-two down
link set s-two name p-two
link set p-two up"
primary_is() { [[ $(sysval /sys/class/net/bond0/bonding/primary) == p-two ]]; }
wait_until 5 primary_is || { show_log; fail "the primary did not follow the rename"; }
whole bond0 s-one,p-two 1500 >/dev/null
wait_until 5 file_has /sys/class/net/bond0/bonding/active_slave p-two ||
	{ show_log; fail "p-two is not the active slave"; }
assert_eq "$releases" "$(log_count "apply: release")" "releases after the rename"
assert_eq "$enslaves" "$(log_count "apply: enslave")" "enslaves after the rename"
