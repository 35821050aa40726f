# SPDX-License-Identifier: MIT
# Behaviour 8, the kernel's down-only options: changing mode (or lacp_rate,
# ad_select, ...) is a logged, deliberate re-build of that bond alone; the
# other bond is not touched.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = 802.3ad
lacp_rate = slow
slaves = e1 e2
[bond1]
slaves = e3 e4
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
whole bond1 e3,e4 9000 >/dev/null
other=$(counters bond1)

sed -i 's/lacp_rate = slow/lacp_rate = fast/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
whole bond0 e1,e2 9000 >/dev/null
assert_eq "fast 1" "$(sysval /sys/class/net/bond0/bonding/lacp_rate)" "lacp_rate"

sed -i 's/mode = 802.3ad/mode = balance-rr/; /lacp_rate/d' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 2 10 || fail "no second reload"
whole bond0 e1,e2 9000 >/dev/null
assert_eq "balance-rr 0" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode"
[ "$(log_count "rebuild")" -ge 2 ] || { show_log; fail "the re-builds were not logged"; }
assert_eq "$other" "$(counters bond1)" "the other bond across both re-builds"
