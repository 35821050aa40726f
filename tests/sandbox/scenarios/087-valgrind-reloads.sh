# SPDX-License-Identifier: MIT
# scenario-timeout: 300
# Reload requests under valgrind (issue 14, attack): good and refused files
# in turn, pipelined, with a watcher, slaves flapping, a client that goes
# away before its answers and one that asks as nobody.  No memcheck error,
# no leak, a clean exit; the last file in force.
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
conf 300
status --reload >/dev/null || fail "the last reload failed"
assert_eq 300 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon as the last reload returns"
kill "$watcher"
echo "measured: $(log_count "reloading") reloads under valgrind"
valgrind_verdict
