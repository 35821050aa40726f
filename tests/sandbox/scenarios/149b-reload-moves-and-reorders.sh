# SPDX-License-Identifier: MIT
# Do no harm at reload, hostile admin: (1) the file rewritten with its
# sections in another order and an address added to bond1: only the address
# is written; (2) e3 moved from bond0 to bond1 while bond0 keeps e1 and e2:
# bond0 never loses carrier and e1, e2 stay in it (no release); (3) an
# 802.3ad bond (keep_order no) whose slave's MTU is changed by hand gets
# that MTU set back and nothing released.  The reload's own changes are not
# logged as drift someone else caused (they were, at warning).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 6
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
mtu = 1500
slaves = e1 e2 e3

[bond1]
mode = 802.3ad
miimon = 100
mtu = 1500
slaves = e4 e5 e6
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 1500 >/dev/null
whole bond1 e4,e5,e6 1500 >/dev/null
applies() { log_count ": apply: "; }

# (1) sections reordered, an address added.
write_conf "$WORK/bondd.conf" <<CONF
[bond1]
mode = 802.3ad
miimon = 100
mtu = 1500
slaves = e4 e5 e6
address = 192.0.2.1/24

[bond0]
miimon = 100
mtu = 1500
slaves = e1 e2 e3
CONF
n=$(applies)
c0=$(sysval /sys/class/net/bond0/carrier_changes)
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
nap 0.5
assert_eq 1 "$(($(applies) - n))" "writes for a reordered file with one address added"
file_has "$BONDD_LOG" "apply: add 192.0.2.1/24 to bond1" || { show_log; fail "address not added"; }
# The admin's own change is not someone else's drift.
assert_eq 0 "$(log_count "changed by something other than bondd")" "drift warnings for the reload"

# (2) e3 moves from bond0 to bond1 (bond1 keeps its order: keep_order no).
sed -i 's/slaves = e1 e2 e3/slaves = e1 e2/; s/slaves = e4 e5 e6/slaves = e4 e5 e6 e3/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 2 10 || fail "no second reload"
whole bond1 e4,e5,e6,e3 1500 >/dev/null
whole bond0 e1,e2 1500 >/dev/null
for d in e1 e2; do
	assert_eq 0 "$(log_count "apply: release $d ")" "releases of $d"
done
assert_eq "$c0" "$(sysval /sys/class/net/bond0/carrier_changes)" "bond0's carrier_changes"

# (3) a slave's MTU changed by hand on the 802.3ad bond.
n=$(applies)
r=$(log_count "apply: release e")
c1=$(sysval /sys/class/net/bond1/carrier_changes)
ip link set e5 mtu 1400
e5_back() { [ "$(sysval /sys/class/net/e5/mtu)" = 1500 ]; }
wait_until 1 e5_back || { show_log; fail "e5's MTU not repaired within 1 s"; }
nap 0.5
assert_eq "$r" "$(log_count "apply: release e")" "releases on bond1"
assert_eq "$c1" "$(sysval /sys/class/net/bond1/carrier_changes)" "bond1's carrier_changes"
echo "measured: $(($(applies) - n)) write(s) for the MTU drift"
