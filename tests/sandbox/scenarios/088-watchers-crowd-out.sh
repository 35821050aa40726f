# SPDX-License-Identifier: MIT
# An unprivileged user holding every client slot with --watch connections
# (watchers are never dropped to make room) must not lock root out: a reload
# (what `systemctl reload bondd` runs) and a privileged status request still
# get through, by ending one of that user's watches; nobody's own next
# connection still gets "too many clients" (issue 14, attack).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

# nobody opens 300 watches and keeps them until killed.
as_nobody python3 - "$SOCK" >"$WORK/crowd.out" 2>&1 <<'PY' &
import socket, sys, time
conns = []
for _ in range(300):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    try:  # past the 256th, bondd answers 503 and closes
        s.sendall(b"watch\n")
    except OSError:
        pass
    conns.append(s)
time.sleep(1)
print("ready", flush=True)
time.sleep(600)
PY
crowd=$!
wait_until 30 file_has "$WORK/crowd.out" ready || { cat "$WORK/crowd.out"; fail "the crowd did not gather"; }
n=$(log_count "a client is watching events")
echo "measured: $n watches held by nobody"
((n >= 256)) || fail "only $n watches: the crowd does not fill the slots"

rc=0
err=$(as_nobody "$BONDD_STATUS" --socket "$SOCK" --brief 2>&1) || rc=$?
assert_eq 3 "$rc" "nobody's own next request, with every slot its watch"
[[ $err == *"too many clients"* ]] || fail "nobody was told \"$err\""

sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"
out=$(status --reload 2>&1) || fail "root's reload with the slots full: $out"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after root's reload"
status --brief >/dev/null || fail "root's status request with the slots full"
kill "$crowd"
wait "$crowd" || true
