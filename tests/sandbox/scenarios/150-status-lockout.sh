# SPDX-License-Identifier: MIT
# The status socket as an untrusted boundary: an unprivileged user holds
# 256 watchers and 300 idle connections and has one watcher that keeps
# writing.  bondd keeps at most its share of them, root's query is answered
# in a median under 100 ms and every one within 1 s (measured in process:
# starting a process in this guest alone takes about 100 ms), bondd's CPU
# stays under 10% while nothing else happens, and a re-created slave is
# whole again in a median within 200 ms or twice the quiet one (one
# enslave request alone takes up to 100 ms in a loaded guest).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

# rounds N LABEL: deletes and re-creates e2 N times; the repair times go
# to the array times.
rounds() {
	local round
	times=()
	for ((round = 1; round <= $1; round++)); do
		ip link del e2
		whole bond0 e1,e3,e4 9000 >/dev/null
		watch_start bond0 e1,e2,e3,e4 9000 --after-new e2
		ip link add e2 type veth peer name p2 netns "$PEER"
		ip -n "$PEER" link set p2 up
		watch_end
		echo "measured: $2: round $round: bond0 whole ${REPAIR_MS} ms after the new e2 appeared"
		times+=("$REPAIR_MS")
		# Where the time went: bondd's own timing of each request.
		grep -E 'took' "$BONDD_LOG" | tail -n 3 | sed 's/^/measured:   /'
	done
}
# The same repair without the attack first, for comparison in this run.
rounds 5 quiet
quiet=("${times[@]}")

: >"$WORK/attack.out"
chmod 666 "$WORK/attack.out"
as_nobody python3 - "$SOCK" "$WORK/attack.out" <<'PY' &
import socket, sys, threading, time
path, out = sys.argv[1], sys.argv[2]
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s
def ask(s, line):
    # A connection past the user's budget is closed at once, unread
    # (bondd(8), PRIVILEGE SEPARATION): the attacker goes on regardless.
    try:
        s.sendall(line)
    except OSError:
        pass
watchers, idle = [], []
for _ in range(256):
    s = conn()
    ask(s, b"watch\n")
    watchers.append(s)
for _ in range(300):
    idle.append(conn())
writer = conn()
ask(writer, b"watch\n")
refused = [0, 0]
def write():
    # Writes for as long as it lives; bondd must not pay for it.
    end = time.monotonic() + 90
    while time.monotonic() < end:
        try:
            writer.send(b"x" * 4096)
            refused[1] += 1
        except OSError:
            refused[0] += 1
            time.sleep(0.01)
threading.Thread(target=write, daemon=True).start()
time.sleep(1)
# How many of our watchers bondd still serves (the others were closed).
open_w = 0
for s in watchers:
    s.settimeout(5)
    head = b""
    while not head.endswith(b"\n"):
        try:
            chunk = s.recv(1)
        except OSError:
            chunk = b""
        if not chunk:
            break
        head += chunk
    assert head in (b"bondd/1 ok 0 stream\n", b""), head
    s.setblocking(False)
    try:
        open_w += s.recv(4096) != b""
    except BlockingIOError:
        open_w += 1
    except OSError:
        pass
with open(out, "w") as f:
    f.write(f"ready watchers_open={open_w}\n")
time.sleep(90)
PY
ATTACK_PID=$!
wait_until 20 file_has "$WORK/attack.out" ready || fail "the attack did not start"
cat "$WORK/attack.out"
open_w=$(sed -n 's/.*watchers_open=//p' "$WORK/attack.out")
((open_w <= 8)) || fail "bondd keeps $open_w watchers of one unprivileged user"

# Root's answer, timed in process: connect, ask, read the whole reply.
python3 - "$SOCK" <<'PY' || fail "root was not served in time"
import socket, sys, time
worst, times = 0, []
for i in range(20):
    t0 = time.monotonic()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(sys.argv[1])
    s.sendall(b"brief\n")
    f = s.makefile("rb")
    head = f.readline().decode()
    assert head.startswith("bondd/1 ok 0 "), head
    body = f.read(int(head.split()[3]))
    ms = 1000 * (time.monotonic() - t0)
    worst = max(worst, ms)
    times.append(ms)
    s.close()
times.sort()
median = (times[9] + times[10]) / 2
print(f"measured: root's brief with the socket held by nobody: median {median:.1f} ms, worst of 20 {worst:.1f} ms")
sys.exit(0 if median < 100 and worst < 1000 else 1)
PY
status --brief || fail "bondd-status --brief as root failed while nobody holds the socket"

# bondd's CPU while nothing happens but the writer writing.
ticks() { local f; read -ra f <"/proc/$BONDD_PID/stat"; echo $((f[13] + f[14])); }
t0=$(ticks)
s0=${EPOCHREALTIME//[!0-9]/}
sleep 3
t1=$(ticks)
s1=${EPOCHREALTIME//[!0-9]/}
hz=$(getconf CLK_TCK)
pct=$(((t1 - t0) * 100000000 / hz / (s1 - s0)))
echo "measured: bondd CPU under attack: ${pct}% (idle, one client writing)"
((pct < 10)) || fail "bondd used ${pct}% CPU"

rounds 5 "under attack"
echo "measured: repairs under attack (ms): ${times[*]}; without: ${quiet[*]}"
median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)
quiet_median=$(printf '%s\n' "${quiet[@]}" | sort -g | sed -n 3p)
# The median within 200 ms, or within twice the quiet one of this run (the
# guest's one CPU is shared with a busy host: one enslave request alone
# took up to 100 ms in CI); every one within a generous 1 s (before the
# server bounded its work, one took 20 s).
bound=$(awk -v q="$quiet_median" 'BEGIN { print (2 * q > 200 ? 2 * q : 200) }')
awk -v ms="$median" -v b="$bound" 'BEGIN { exit !(ms <= b) }' ||
	fail "median repair $median ms under attack (bound $bound ms)"
for ms in "${times[@]}"; do
	awk -v ms="$ms" 'BEGIN { exit !(ms <= 1000) }' || fail "a repair took $ms ms under attack"
done
kill "$ATTACK_PID" 2>/dev/null || true
kill -0 "$BONDD_PID" || fail "bondd died"
