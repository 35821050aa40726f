# SPDX-License-Identifier: MIT
# Behaviour 3: someone sets a slave's MTU to 1500; the kernel does not
# correct it, bondd does, and nothing else is touched.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
before=$(log_count "apply:")

watch_start bond0 e1,e2,e3,e4 9000 --after-mtu e3
ip link set e3 mtu 1500
watch_end
echo "measured: e3 back at MTU 9000 ${REPAIR_MS} ms after the change"
assert_within 1000 "repairing e3's MTU"

assert_eq 9000 "$(sysval /sys/class/net/e3/mtu)" "e3 mtu"
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
# Exactly one write: the MTU of e3.
wait_log "apply: set e3 mtu 9000" 1 5 || { show_log; fail "no MTU repair logged"; }
assert_eq $((before + 1)) "$(log_count "apply:")" "kernel writes for one MTU drift"
