# SPDX-License-Identifier: MIT
# A refused reload tells the one who asked (root) and the log the whole
# reason, but the event every socket client may watch names only where the
# error is: the file may be readable by root alone, and its text must not
# reach an unprivileged watcher (issue 14, attack).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF
chmod 0600 "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

as_nobody "$BONDD_STATUS" --socket "$SOCK" --watch >"$WORK/watch.log" 2>&1 &
watcher=$!
wait_log "is watching events" 1 5 || fail "the watcher did not connect"

# A secret where a value should be, on line 3.
printf '[bond0]\nmiimon = 100\narp_ip_target = s3cr3t-t0ken\nslaves = e1 e2\n' >"$WORK/bondd.conf"
rc=0
err=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status on a bad file"
[[ $err == *"$WORK/bondd.conf:3: "*"s3cr3t-t0ken"* ]] || fail "root was not told the reason: \"$err\""
wait_until 5 file_has "$WORK/watch.log" "refused" || { cat "$WORK/watch.log"; fail "no refusal event"; }
file_has "$WORK/watch.log" "$WORK/bondd.conf:3" || { cat "$WORK/watch.log"; fail "the event does not say where"; }
if file_has "$WORK/watch.log" "s3cr3t"; then
	cat "$WORK/watch.log"
	fail "an unprivileged watcher saw the text of a root-only file"
fi
as_nobody "$BONDD_STATUS" --socket "$SOCK" --json >"$WORK/nobody.json" || true
if file_has "$WORK/nobody.json" "s3cr3t"; then fail "nobody's JSON holds the text of a root-only file"; fi
file_has "$BONDD_LOG" "s3cr3t-t0ken" || fail "bondd's log lacks the reason"
kill "$watcher"
