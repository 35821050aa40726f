# SPDX-License-Identifier: MIT
# Behaviour 7: restart.  bondd is killed with SIGKILL and started again with
# the same config: it adopts the bond and writes nothing.  The bond keeps
# its ifindex, no slave's link failure count moves, no carrier is lost
# (the kernel's carrier_changes counters do not move).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
wait_until 10 mii_up e4 || fail "slaves not up"
before=$(counters bond0)

kill -KILL "$BONDD_PID"
wait "$BONDD_PID" 2>/dev/null || true
BONDD_PID=
: >"$BONDD_LOG"
start_bondd "$WORK/bondd.conf"
# Events arriving after "ready" would also be acted on: give them a moment.
wait_until 1 false || true
after=$(counters bond0)

assert_eq 0 "$(log_count "apply:")" "kernel writes after a restart"
assert_eq "$before" "$after" "ifindex and counters across the restart"
echo "unchanged across restart: $after"
