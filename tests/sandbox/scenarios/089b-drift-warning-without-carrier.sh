# SPDX-License-Identifier: MIT
# Log priorities (issue 14, attack): drift someone else causes is a warning
# even while a slave has no carrier (carrier is not bondd's to give, and
# that is when an operator looks); a slave that appears late is bondd's own
# work (info), not drift.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
wait_log "$READY" 1 10 || fail "bondd not ready"
# e3 appears late: bondd enslaves it; info, not a warning.
nics 1 3
whole bond0 e1,e2,e3 9000 >/dev/null
sleep 0.3
assert_eq 0 "$(log_count "changed by something other than bondd")" "warnings for a slave that appeared"

ip -n "$PEER" link set p1 down
mii_down() { [[ $(status --brief 2>/dev/null) == *"e1: MII down"* ]]; }
wait_until 5 mii_down || fail "e1 is not MII down: $(status --brief || true)"
ip link set e2 mtu 1500
whole bond0 e1,e2,e3 9000 >/dev/null
wait_log "bond0: changed by something other than bondd" 1 5 ||
	{ show_log; fail "e2's MTU changed by hand, with e1 without carrier, was not a warning"; }
file_has "$BONDD_LOG" "warning: bond0: changed by something other than bondd (e2: mtu)" ||
	{ show_log; fail "the warning does not say what changed"; }
