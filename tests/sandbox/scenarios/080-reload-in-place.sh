# SPDX-License-Identifier: MIT
# Behaviour 8: reload (SIGHUP) applies changes in place: an added and a
# removed slave, a new miimon and MTU, an added bond and one deleted by
# "state = absent".  The bond that stays keeps its ifindex.  An unchanged
# reload writes nothing.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 7
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2 e3 e4
[bond9]
slaves = e7
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
whole bond9 e7 9000 >/dev/null
index=$(sysval /sys/class/net/bond0/ifindex)

# An unchanged reload: nothing written.
writes=$(log_count "apply:")
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
assert_eq "$writes" "$(log_count "apply:")" "writes for an unchanged reload"

write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 200
mtu = 8000
slaves = e1 e2 e3 e5
[bond1]
mode = active-backup
miimon = 100
primary = e6
slaves = e6
[bond9]
state = absent
CONF
kill -HUP "$BONDD_PID"
wait_log "reloaded" 2 10 || fail "no second reload"
whole bond0 e1,e2,e3,e5 8000
whole bond1 e6 9000
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex (changed in place)"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon"
assert_eq "active-backup 1" "$(sysval /sys/class/net/bond1/bonding/mode)" "bond1 mode"
assert_eq "e6" "$(sysval /sys/class/net/bond1/bonding/primary)" "bond1 primary"
[ ! -e /sys/class/net/bond9 ] || fail "bond9 was removed from the config but still exists"
[ ! -e /sys/class/net/e4/master ] || fail "e4 still enslaved"
