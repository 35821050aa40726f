# SPDX-License-Identifier: MIT
# scenario-timeout: 300
# Reload requests under valgrind (issue 14, attack): good and refused files
# in turn, pipelined, with a watcher, slaves flapping, a client that goes
# away before its answers and one that asks as nobody; then reloads on
# trial (issue 36): one put back at its deadline while a client that went
# away waited for it, one confirmed, one still running when bondd stops.
# No memcheck error, no leak, a clean exit; the last file in force.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"

nics 2
conf() {
	printf '[bond0]\nmiimon = %s\nslaves = e1 e2\n%s' "$1" "${2:-}" >"$WORK/bondd.conf.new"
	mv "$WORK/bondd.conf.new" "$WORK/bondd.conf"
}
conf 100
start_valgrind_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond0 not whole"; }
status --watch >"$WORK/watch.log" 2>&1 &
watcher=$!

pipelined() { # pipelined N [close]
	python3 - "$SOCK" "$@" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
n = int(sys.argv[2])
s.sendall(b"reload\n" * n)
if len(sys.argv) > 3:
    sys.exit(0)
s.settimeout(120)
f = s.makefile("rb")
for _ in range(n):
    head = f.readline().decode().split()
    if not head:
        sys.exit("bondd closed the connection")
    if head[1] == "ok":
        f.read(int(head[3]))
PY
}

for ((i = 1; i <= 10; i++)); do
	conf $((100 + i)) # good
	pipelined 5 || fail "round $i: pipelined reloads"
	ip -n "$PEER" link set p1 down
	conf 100 "miimom = 1"$'\n' # refused
	rc=0
	status --reload >/dev/null 2>&1 || rc=$?
	assert_eq 1 "$rc" "round $i: a refused reload's exit status"
	ip -n "$PEER" link set p1 up
	pipelined 20 close
	as_nobody "$BONDD_STATUS" --socket "$SOCK" --reload >/dev/null 2>&1 && fail "nobody reloaded"
done
conf 200
status --reload --try 2 >/dev/null || fail "trial 1 was not applied"
python3 - "$SOCK" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b"trial-wait 1\n")  # and goes away before the answer
PY
wait_log "trial 1 rolled back: no confirm before the deadline" 1 30 ||
	{ show_log; fail "trial 1 was not put back"; }
# the last file taken before it: round 10's (its refused one changed nothing)
wait_until 10 sh -c '[ "$(cat /sys/class/net/bond0/bonding/miimon)" = 110 ]' ||
	fail "miimon after trial 1 was put back: $(sysval /sys/class/net/bond0/bonding/miimon)"
conf 250
status --reload --try 60 >/dev/null || fail "trial 2 was not applied"
status --confirm >/dev/null || fail "trial 2 was not confirmed"
conf 300
status --reload >/dev/null || fail "the last reload failed"
assert_eq 300 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon as the last reload returns"
conf 310
status --reload --try 60 >/dev/null || fail "trial 3 was not applied"
assert_eq 310 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon in trial 3, as bondd stops"
kill "$watcher"
echo "measured: $(log_count "reloading") reloads under valgrind"
valgrind_verdict
log_has "stopping during trial 3: the trial ends unconfirmed" 1 || { show_log; fail "no word of trial 3 at the stop"; }
