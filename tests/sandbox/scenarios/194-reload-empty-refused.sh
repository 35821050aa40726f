# SPDX-License-Identifier: MIT
# A reload of a file that defines no bonds (truncated by a config tool, an
# editor's crash) while bondd manages some is refused: bondd-status
# --reload exits 1 with the reason, the log and systemd's STATUS= say so,
# and bondd keeps managing: a slave re-created afterwards is whole again
# within 1 s.  A file with only comments is no bond either.  The next good
# reload clears the note.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# A stand-in for systemd's notify socket: every datagram on a line.
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
trap 'kill $LISTENER 2>/dev/null; bondd_cleanup' EXIT
: >"$WORK/notify.log"
wait_until 5 file_has "$WORK/notify.log" bound || fail "no notify listener"
export NOTIFY_SOCKET=$NOTIFY

nics 3
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
slaves = e1 e2 e3
CONF
cp "$WORK/bondd.conf" "$WORK/good.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
writes=$(log_count "apply:")

# Truncated: asked by bondd-status --reload.
: >"$WORK/bondd.conf"
# --check passes it (bondd would run idle with it at start) but says that a
# reload of it is refused.
chk=$("$BONDD" --check --config "$WORK/bondd.conf" 2>&1) || fail "--check failed: $chk"
[[ $chk == *"$WORK/bondd.conf: warning: it defines no bonds"*"refuses it on reload"* ]] ||
	fail "--check does not say a reload refuses it: $chk"
rc=0
out=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status on an empty file"
[[ $out == *"defines no bonds"*"stop the service"* ]] || fail "the refusal said \"$out\""
log_has "reload refused: $WORK/bondd.conf defines no bonds" 1 || { show_log; fail "not in the log"; }
last_status() {
	local line st=""
	while IFS= read -r line; do
		[[ $line == *STATUS=* ]] && st=${line#*STATUS=}
	done <"$WORK/notify.log"
	printf '%s' "${st%% | *}"
}
status_has() { [[ $(last_status) == *"$1"* ]]; }
wait_until 2 status_has "last reload refused: $WORK/bondd.conf defines no bonds" ||
	fail "STATUS= did not say so: '$(last_status)'"

# Only comments, by SIGHUP: refused too.
printf '# being rewritten\n' >"$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reload refused: $WORK/bondd.conf defines no bonds" 2 10 || { show_log; fail "SIGHUP took it"; }
assert_eq "$writes" "$(log_count "apply:")" "writes after the refused reloads"

# Still managing: a re-created slave is repaired within 1 s.
ip link del e2
whole bond0 e1,e3 9000 >/dev/null
watch_start bond0 e1,e2,e3 9000 --after-new e2
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p2 up
watch_end
echo "measured: e2 re-created after the refused reload: whole ${REPAIR_MS} ms after it appeared"
assert_within 1000 "the repair after a refused reload"

# The file back: taken, and the note is gone from STATUS=.
cp "$WORK/good.conf" "$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "the good file was refused"; }
wait_until 2 eval '! status_has "refused"' || fail "STATUS= still says refused: '$(last_status)'"
echo "empty file refused on reload; bondd kept repairing"
