# SPDX-License-Identifier: MIT
# A reload on trial (bondd(8), RELOAD ON TRIAL; issue 36):
# - not confirmed: `bondd-status --reload --try 3` applies the file and
#   returns (exit 0, the deadline printed); after 3 s bondd puts the
#   configuration before it back, in place (the bond keeps its ifindex),
#   and says so in the log (the file still holds the tried one), the
#   events and --json; a confirm after it is refused (exit 1);
# - confirmed: `--try 20 --wait` waits (--brief shows the trial, a plain
#   reload meanwhile is refused); `--confirm` keeps the tried
#   configuration and the waiting client exits 0;
# - a trial that leaves the bond without slaves (slaves that do not exist)
#   is put back at once, not at its 30 s deadline: the waiting client exits
#   4 within the grace (3 s) and a margin, and the bond is whole again;
# - a restart during a trial ends it (said in the log; a waiting client
#   exits 3) and bondd starts from the file, with no trial;
# - systemd's STATUS= names a running trial, and no longer once confirmed.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# A stand-in for systemd's notify socket (as 194's): STATUS= names a trial.
NOTIFY=$WORK/notify.sock
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
out = open(sys.argv[2], "a", buffering=1)
print("bound", file=out)
while True:
    out.write(s.recv(4096).decode(errors="replace").replace("\n", " | ") + "\n")
' "$NOTIFY" "$WORK/notify.log" &
LISTENER=$!
trap 'kill "$LISTENER" 2>/dev/null || true; bondd_cleanup' EXIT
: >"$WORK/notify.log"
wait_until 5 file_has "$WORK/notify.log" bound || fail "no notify listener"
export NOTIFY_SOCKET=$NOTIFY
last_status() {
	local line st=""
	while IFS= read -r line; do
		[[ $line == *STATUS=* ]] && st=${line#*STATUS=}
	done <"$WORK/notify.log"
	printf '%s' "${st%% | *}"
}
status_has() { [[ $(last_status) == *"$1"* ]]; }

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
index=$(sysval /sys/class/net/bond0/ifindex)
"$BONDD_STATUS" --socket "$SOCK" --watch >"$WORK/events" 2>&1 &
WATCHER=$!
trap 'kill "$WATCHER" "$LISTENER" 2>/dev/null || true; bondd_cleanup' EXIT

json() { status --json "$@"; }
# Samples for the schema check in CI (tests/check-status-outputs).
mkdir -p "$BUILD_DIR/status-samples"
sample() { printf '%s\n' "$2" >"$BUILD_DIR/status-samples/207-$1.json"; }

# --- 1. Not confirmed: put back at the deadline. -------------------------
sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"
out=$(status --reload --try 3) || fail "bondd-status --reload --try 3 exited $?"
[[ $out == "trial 1: applied $WORK/bondd.conf: 1 bond; put back at "*" (in 3 s) unless confirmed"* ]] ||
	fail "--try said \"$out\""
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon once the trial is applied"
doc=$(json) || true
[[ $doc == *'"trial":{"id":1,"state":"running","seconds":3,"started":"'*'","seconds_left":'[0-3]',"ended":null,"reason":null}'* ]] ||
	fail "--json trial while it runs: ${doc:0:400}"
sample trial-running "$doc"
# Put back after the deadline: miimon 100 again, in place.
wait_log "trial 1 rolled back: no confirm before the deadline" 1 6 ||
	{ show_log; fail "trial 1 was not put back"; }
log_has "$WORK/bondd.conf still holds the tried one: a reload or a restart applies it again" 1 ||
	{ show_log; fail "the rollback line does not say what the file holds"; }
wait_until 2 sh -c '[ "$(cat /sys/class/net/bond0/bonding/miimon)" = 100 ]' ||
	fail "miimon after the rollback: $(sysval /sys/class/net/bond0/bonding/miimon)"
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex (put back in place)"
doc=$(json) || true
[[ $doc == *'"trial":{"id":1,"state":"rolled-back",'*'"seconds_left":null,"ended":"'*'","reason":"no confirm before the deadline"}'* ]] ||
	fail "--json trial after the rollback: ${doc:0:400}"
sample trial-rolled-back "$doc"
wait_until 2 file_has "$WORK/events" "trial 1 rolled back: no confirm before the deadline" ||
	fail "no rollback event for --watch: $(cat "$WORK/events")"
# Nothing to confirm now.
rc=0
err=$(status --confirm 2>&1) || rc=$?
assert_eq 1 "$rc" "--confirm's exit status without a trial"
[[ $err == *"confirm refused: no trial runs: nothing to confirm"* ]] || fail "--confirm said \"$err\""

# --- 2. Confirmed: kept; the waiting client exits 0. ---------------------
"$BONDD_STATUS" --socket "$SOCK" --reload --try 20 --wait >"$WORK/try2.out" 2>&1 &
TRY=$!
wait_log "trial 2: applied" 1 5 || { show_log; fail "trial 2 did not start"; }
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon in trial 2"
brief=$(status --brief) || true
[[ $brief == *$'\n'"trial 2 running: "[0-9]*" s left; put back unless confirmed"* ]] ||
	fail "--brief while the trial runs: $brief"
# A plain reload while it runs: refused, nothing changes.
rc=0
err=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "a plain reload's exit status during a trial"
[[ $err == *"reload refused: trial 2 runs ("*" s left): confirm it (bondd-status --confirm)"* ]] ||
	fail "a reload during the trial said \"$err\""
wait_until 2 status_has "; trial 2 runs: put back at " ||
	fail "STATUS= did not name the trial: '$(last_status)'"
out=$(status --confirm) || fail "--confirm exited $?"
[[ $out == "trial 2 confirmed: the tried configuration stays" ]] || fail "--confirm said \"$out\""
rc=0
wait "$TRY" || rc=$?
assert_eq 0 "$rc" "the waiting client's exit status once confirmed"
file_has "$WORK/try2.out" "trial 2 confirmed" || fail "the waiting client said: $(cat "$WORK/try2.out")"
doc=$(json) || true
[[ $doc == *'"trial":{"id":2,"state":"confirmed",'* ]] || fail "--json after the confirm: ${doc:0:400}"
sample trial-confirmed "$doc"
[[ $(last_status) != *trial* ]] || fail "STATUS= after the confirm: '$(last_status)'"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after the confirm"

# --- 3. No slaves left: put back at once. --------------------------------
sed -i 's/slaves = e1 e2/slaves = nope1 nope2/' "$WORK/bondd.conf"
start=${EPOCHREALTIME//[!0-9]/}
"$BONDD_STATUS" --socket "$SOCK" --reload --try 30 --wait >"$WORK/try3.out" 2>&1 &
TRY=$!
wait_log "trial 3: applied" 1 5 || { show_log; fail "trial 3 did not start"; }
wait_until 8 sh -c '! kill -0 "$0" 2>/dev/null' "$TRY" ||
	{ show_log; fail "trial 3 was not put back within 8 s of a 30 s trial"; }
rc=0
wait "$TRY" || rc=$?
took=$(((${EPOCHREALTIME//[!0-9]/} - start) / 1000))
echo "# measured: trial leaving bond0 without slaves put back after $took ms (grace 3000 ms)"
assert_eq 4 "$rc" "the waiting client's exit status once put back"
file_has "$WORK/try3.out" "trial 3 rolled back: bond0 has no slaves" ||
	fail "the waiting client said: $(cat "$WORK/try3.out")"
log_has "trial 3 rolled back: bond0 has no slaves" 1 || { show_log; fail "no rollback line"; }
whole bond0 e1,e2 9000 >/dev/null
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex after trial 3"

# --- 4. A restart during a trial: the trial ends; bondd starts from the file.
printf '[bond0]\nmiimon = 300\nslaves = e1 e2\n' >"$WORK/bondd.conf"
"$BONDD_STATUS" --socket "$SOCK" --reload --try 30 --wait >"$WORK/try4.out" 2>&1 &
TRY=$!
wait_log "trial 4: applied" 1 5 || { show_log; fail "trial 4 did not start"; }
stop_bondd
log_has "stopping during trial 4: the trial ends unconfirmed" 1 || { show_log; fail "no word of the trial at the stop"; }
rc=0
wait "$TRY" || rc=$?
assert_eq 3 "$rc" "a waiting client's exit status when bondd stops during the trial"
start_bondd "$WORK/bondd.conf"
assert_eq 300 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after the restart (the file's)"
doc=$(json) || true
[[ $doc == *'"trial":null,'* ]] || fail "a trial after the restart: ${doc:0:400}"
