# SPDX-License-Identifier: MIT
# Issue 11: a bond under a bridge (a VM bridge on a hyperconverged node).
# The bridge sends RTM_NEWLINK/RTM_DELLINK of family AF_BRIDGE for its
# ports (net/bridge/br_netlink.c br_ifinfo_notify); they describe the
# port, not the device, and must not overwrite bondd's picture of bond0.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
before=$(log_count "apply:")
mtu_writes=$(log_count "apply: set e3 mtu 9000")

ip link add br0 type bridge
ip link set bond0 master br0
ip link set br0 up
# Whatever the bridge said about its new port has reached bondd once the
# status answer comes after it; a healthy bond stays healthy.
wait_until 3 has_addr bond0 10.77.0.1/24 || fail "bond0 lost its address in the bridge"
nap 0.3
rc=0 && status --brief || rc=$?
((rc == 0)) || { show_log; fail "bond0 in a bridge is not healthy (exit $rc)"; }

watch_start bond0 e1,e2,e3,e4 9000 --after-mtu e3
ip link set e3 mtu 1500
watch_end
echo "measured: e3 back at MTU 9000 ${REPAIR_MS} ms after the change, bond0 in br0"
assert_within 1000 "repairing e3's MTU under a bridge"
# bondd logs its write once the kernel has answered, which may be after
# bondwatch saw the kernel's message of it.
wait_log "apply: set e3 mtu 9000" $((mtu_writes + 1)) 5 || { show_log; fail "no MTU repair logged"; }
assert_eq $((before + 1)) "$(log_count "apply:")" "kernel writes: only e3's MTU"

# Leaving the bridge sends an AF_BRIDGE RTM_DELLINK for bond0: bondd must
# not forget bond0 and its address (it would add the address again).
ip link set bond0 nomaster
# The barrier, asked by a user with no privilege (any user may settle).
rc=0 && as_nobody "$BONDD_STATUS" --socket "$SOCK" --settle || rc=$?
((rc == 0)) || { show_log; fail "bondd-status --settle as nobody: exit $rc"; }
has_addr bond0 10.77.0.1/24 || { show_log; fail "bond0 lost its address"; }
rc=0 && status --brief || rc=$?
((rc == 0)) || { show_log; fail "bond0 out of the bridge is not healthy (exit $rc)"; }
assert_eq $((before + 1)) "$(log_count "apply:")" "kernel writes after leaving the bridge"
(($(log_count "exists and is not a bond") == 0)) || { show_log; fail "bondd took a port message for the bond"; }
echo "measured: $(log_count "apply:") kernel writes in all"
