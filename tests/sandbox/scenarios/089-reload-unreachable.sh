# SPDX-License-Identifier: MIT
# scenario-timeout: 180
# bondd-status --reload against a bondd that is absent, dead or stopped
# (issue 14, attack), with the exit statuses of bondd-status(1): 3 when
# bondd cannot be reached (no socket, a stale socket of a killed bondd);
# a bondd stopped for longer than the 10 s an ordinary request waits, then
# continued, still answers the reload, which waits up to 80 s, exit 0.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF

unreachable() {
	local what=$1 rc=0 err
	err=$(status --reload 2>&1) || rc=$?
	assert_eq 3 "$rc" "bondd-status --reload exit status, $what"
	[[ $err == *"cannot reach bondd"* ]] || fail "$what: \"$err\""
}
unreachable "no socket"

start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
kill -KILL "$BONDD_PID"
wait "$BONDD_PID" 2>/dev/null || true
BONDD_PID=
[[ -S $SOCK ]] || fail "no stale socket left by the killed bondd"
unreachable "a stale socket"

start_bondd "$WORK/bondd.conf"
wait_log "$READY" 2 10 || fail "bondd did not start again"
sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"
kill -STOP "$BONDD_PID"
t0=${EPOCHREALTIME//[!0-9]/}
status --reload >"$WORK/reload.out" 2>&1 &
reloader=$!
sleep 12
kill -CONT "$BONDD_PID"
rc=0
wait "$reloader" || rc=$?
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: the reload answered $(((t1 - t0) / 1000)) ms after it was asked, bondd stopped for 12 s"
assert_eq 0 "$rc" "bondd-status --reload exit status across a 12 s stop ($(cat "$WORK/reload.out"))"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after the reload"
