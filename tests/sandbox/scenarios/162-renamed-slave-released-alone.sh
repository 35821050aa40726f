# SPDX-License-Identifier: MIT
# A slave renamed while enslaved (eth2 -> lan2: what udev or an admin may
# do) is a stranger in the middle of the bond: bondd releases it alone, and
# the slaves after it stay enslaved (no release, no carrier loss).  When
# the name comes back, the order is restored.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
fails3=$(sysval /sys/class/net/e3/bonding_slave/link_failure_count)
fails4=$(sysval /sys/class/net/e4/bonding_slave/link_failure_count)

# The kernel renames only a device that is down.
ip -batch - <<<"link set e2 down
link set e2 name lan2"
whole bond0 e1,e3,e4 9000
wait_until 5 log_has "apply: release lan2" 1 || { show_log; fail "lan2 was not released"; }
assert_eq 0 "$(log_count "apply: release e3")" "releases of e3"
assert_eq 0 "$(log_count "apply: release e4")" "releases of e4"
assert_eq "$fails3" "$(sysval /sys/class/net/e3/bonding_slave/link_failure_count)" "e3 link failures"
assert_eq "$fails4" "$(sysval /sys/class/net/e4/bonding_slave/link_failure_count)" "e4 link failures"
[[ ! -e /sys/class/net/lan2/master ]] || fail "lan2 is still enslaved"

# The name back: e2 at its place again.
ip link set lan2 name e2
whole bond0 e1,e2,e3,e4 9000
