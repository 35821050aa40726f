# SPDX-License-Identifier: MIT
# Behaviour 6: carrier flaps (the peer's port goes down and up) are counted,
# and nothing is written to the kernel: the bond's own monitor handles them.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
writes=$(log_count "apply:")

ip -n "$PEER" -batch - <<'BATCH'
link set p2 down
link set p2 up
link set p2 down
link set p2 up
link set p3 down
link set p3 up
BATCH
wait_log "e2: carrier lost (2 so far)" 1 10 || { show_log; fail "e2's flaps not counted"; }
wait_log "e3: carrier lost (1 so far)" 1 10 || { show_log; fail "e3's flap not counted"; }
wait_until 10 mii_up e2 || fail "e2 MII did not come back"
assert_eq "$writes" "$(log_count "apply:")" "kernel writes during carrier flaps"
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
