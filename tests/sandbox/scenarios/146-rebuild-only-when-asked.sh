# SPDX-License-Identifier: MIT
# Issue 12, disruptive changes only when asked.  "bondd --check --plan"
# prints what a reload would do to the live kernel, marking what disrupts
# traffic, and changes nothing.  A foreign bond of the same name, in
# another mode and with a slave, seen in an event: left alone and noted;
# taken over (a rebuild, logged) only at the reload.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null

# --check --plan against the live kernel, for a config not loaded yet.
sed 's/miimon = 100/mode = active-backup\nmiimon = 100/' "$WORK/bondd.conf" >"$WORK/next.conf"
before=$(counters bond0)
"$BONDD" --check --plan --config "$WORK/next.conf" >"$WORK/plan.out"
cat "$WORK/plan.out"
file_has "$WORK/plan.out" "bond0: release e3 (rebuild)  [disrupts traffic]" || fail "release not marked"
file_has "$WORK/plan.out" "bond0: set bond0 mode=active-backup (rebuild)  [disrupts traffic]" ||
	fail "the mode change not marked"
file_has "$WORK/plan.out" "bond0: enslave e1 to bond0 (rebuild)" || fail "enslave missing"
file_has "$WORK/plan.out" "disrupting traffic; none taken" || fail "no summary"
assert_eq "$before" "$(counters bond0)" "bond0 after --check --plan"
assert_eq "balance-rr 0" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode after --check --plan"
"$BONDD" --check --plan --config "$WORK/bondd.conf" | grep -q "nothing to do" ||
	fail "--check --plan of the running config is not empty"

# A foreign bond0 appears while bondd is stopped for a moment (so that it
# cannot re-create its own in between): it sees it in its events.
kill -STOP "$BONDD_PID"
ip -batch - <<'BATCH'
link del bond0
link add bond0 type bond mode active-backup miimon 100
link set e4 down
link set e4 master bond0
link set bond0 up
BATCH
kill -CONT "$BONDD_PID"
wait_log "mode differ: a rebuild, done at start or reload only" 1 5 || { show_log; fail "not noted"; }
bondd_settle
assert_eq "active-backup 1" "$(sysval /sys/class/net/bond0/bonding/mode)" "foreign bond0's mode"
assert_eq "e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "foreign bond0's slaves"

kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
whole bond0 e1,e2,e3 9000 >/dev/null
assert_eq "balance-rr 0" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode after the reload"
file_has "$BONDD_LOG" "apply: release e4 (rebuild)" || { show_log; fail "the rebuild was not logged"; }
