# SPDX-License-Identifier: MIT
# bondd-status --nagios is a Nagios/Icinga plugin: one line on stdout,
# "BONDD STATE - text | perfdata", and the plugin's exit status, for a
# healthy bond (OK, 0), a slave gone (WARNING, 1, the reason named), the
# bond gone (CRITICAL, 2) and no bondd (UNKNOWN, 3).  Also saves a
# --prometheus sample for the mixin's metric check (tests/check-mixin).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
mtu = 9000
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
wait_until 5 mii_up e1 && wait_until 5 mii_up e2 || fail "slaves not MII up"

nagios() { rc=0; out=$(status --nagios "$@") || rc=$?; echo "$out (exit $rc)"; }
nagios
assert_eq 0 "$rc" "exit status, healthy"
assert_eq "BONDD OK - 1 of 1 bond healthy | 'bond0_slaves_up'=2;2:;1:;0;2 'bond0_health'=0;0;1;0;2" "$out" "plugin line, healthy"
mkdir -p "$BUILD_DIR/status-samples"
status --prometheus >"$BUILD_DIR/status-samples/204-metrics.prom"
grep -q '^bondd_bond_mode_info{master="bond0",device="bond0",mode="balance-rr"} 1$' \
	"$BUILD_DIR/status-samples/204-metrics.prom" || fail "no bondd_bond_mode_info for bond0"

# A slave gone: degraded, WARNING with the reason.
health_lines=$(log_count ": health: ")
ip link del e2
wait_until 5 sh -c '"$0" --socket "$1" --brief >/dev/null; [ $? -eq 1 ]' "$BONDD_STATUS" "$SOCK" ||
	fail "bond0 never degraded"
nagios
assert_eq 1 "$rc" "exit status, degraded"
[[ $out == "BONDD WARNING - bond0 degraded, 1/2 slaves up ("*") | 'bond0_slaves_up'=1;2:;1:;0;2 'bond0_health'=1;0;1;0;2" ]] ||
	fail "plugin line, degraded: $out"
# bondd's log says so too, one line per change (bond, from, to, why).
wait_log "bond0: health: healthy -> degraded: " 1 5 || fail "no health change line in bondd's log"

# The bond named and gone (no slave can come back: e1 deleted too, bond
# deleted): CRITICAL.
ip link del e1
wait_until 5 sh -c '"$0" --socket "$1" --brief bond0 >/dev/null; [ $? -eq 2 ]' "$BONDD_STATUS" "$SOCK" ||
	fail "bond0 never down"
nagios bond0
assert_eq 2 "$rc" "exit status, down"
[[ $out == "BONDD CRITICAL - bond0 down, 0/2 slaves up"*" | 'bond0_slaves_up'=0;2:;1:;0;2 'bond0_health'=2;0;1;0;2" ]] ||
	fail "plugin line, down: $out"
wait_log "bond0: health: degraded -> down: " 1 5 || fail "no health change line to down in bondd's log"
(($(log_count ": health: ") == health_lines + 2)) ||
	{ grep ": health: " "$BONDD_LOG"; fail "expected two more health lines (degraded, down), one per change"; }

# No bondd: UNKNOWN, one line on stdout.
stop_bondd
nagios
assert_eq 3 "$rc" "exit status, no bondd"
assert_eq "BONDD UNKNOWN - no usable reply from bondd at $SOCK" "$out" "plugin line, no bondd"
