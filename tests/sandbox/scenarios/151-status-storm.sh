# SPDX-License-Identifier: MIT
# scenario-timeout: 600
# Client I/O never starves repairs.  During a storm of carrier flaps, a
# slave is deleted and re-created again and again; first with a quiet
# socket (10 repairs), then for 4,000 flaps with 255 watchers that never
# read and 20 clients sending 1 MiB request lines in a loop.  The repair times of both phases
# are printed side by side (p50, p99); under load the median stays within
# 50 ms (or twice the quiet one: the guest's one CPU is shared with the
# storm and the load's own processes) and every repair within 2 s (before
# the loop served the kernel first, one took 20 s), and root's query is
# answered in a median under 1 s and every one within 3 s (generous: the
# old loop kept root waiting 20 s; the figures are printed).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# The status server's loop under client storms is bondd's own, the same on
# every kernel (020 and 121 prove the repairs themselves on each), and this
# takes over a minute: once, on 6.1 (CI's time).
case $(uname -r) in
6.1.*) ;;
*) skip "the status server: kernel-independent, run on 6.1 only" ;;
esac

nics 4
standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

# The storm: carrier flaps of e3 and e4 (their peers go down and up), in
# the background until told to stop: 100 flaps at once, then a short
# pause (at full speed the guest's one CPU goes to ip and the kernel, and
# repairs wait for the CPU whatever bondd does).
storm() {
	local batch="" i
	for ((i = 0; i < 50; i++)); do
		batch+="link set p3 down"$'\n'"link set p3 up"$'\n'
		batch+="link set p4 down"$'\n'"link set p4 up"$'\n'
	done
	while [[ ! -e $WORK/storm.stop ]]; do
		ip -n "$PEER" -batch - <<<"$batch"
		echo 100 >>"$WORK/storm.count"
		sleep 0.02
	done
}
flaps() { awk '{ n += $1 } END { print n + 0 }' "$WORK/storm.count"; }

# phase LABEL FLAPS REPAIRS: re-creates e2 until the storm has made FLAPS
# flaps and REPAIRS repairs were timed; the repair times go to the array
# times.
ticks() { local f; read -ra f <"/proc/$BONDD_PID/stat"; echo $((f[13] + f[14])); }
phase() {
	local t0 s0 t1 s1
	t0=$(ticks) s0=${EPOCHREALTIME//[!0-9]/}
	: >"$WORK/storm.count"
	rm -f "$WORK/storm.stop"
	storm &
	STORM_PID=$!
	times=()
	while (($(flaps) < $2 || ${#times[@]} < $3)); do
		ip link del e2
		whole bond0 e1,e3,e4 9000 >/dev/null
		watch_start bond0 e1,e2,e3,e4 9000 --after-new e2
		ip link add e2 type veth peer name p2 netns "$PEER"
		ip -n "$PEER" link set p2 up
		watch_end
		times+=("$REPAIR_MS")
	done
	touch "$WORK/storm.stop"
	wait "$STORM_PID"
	t1=$(ticks) s1=${EPOCHREALTIME//[!0-9]/}
	echo "measured: $1: $(flaps) flaps in $(((s1 - s0) / 1000)) ms, bondd CPU $(((t1 - t0) * 100000000 / $(getconf CLK_TCK) / (s1 - s0)))%, ${#times[@]} repairs (ms): ${times[*]}"
}
# pct P: the P-th percentile (nearest rank) of times.
pct() { printf '%s\n' "${times[@]}" | sort -g | awk -v p="$1" '{ v[NR] = $1 } END { r = int((p * NR + 99) / 100); print v[r < 1 ? 1 : r] }'; }

phase "quiet socket" 0 10
quiet_p50=$(pct 50) quiet_p99=$(pct 99)

# root_query LABEL BOUND_MS: root's brief, timed in process, during the storm.
root_query() {
	: >"$WORK/storm.count"
	rm -f "$WORK/storm.stop"
	storm &
	STORM_PID=$!
	python3 - "$SOCK" "$1" "$2" <<'PY' || fail "root's query ($1) took too long"
import socket, sys, time
worst, times = 0, []
for i in range(10):
    t0 = time.monotonic()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(sys.argv[1])
    t1 = time.monotonic()
    s.sendall(b"brief\n")
    f = s.makefile("rb")
    head = f.readline().decode()
    assert head.startswith("bondd/1 ok "), head
    f.read(int(head.split()[3]))
    if 1000 * (time.monotonic() - t0) > worst:
        worst = 1000 * (time.monotonic() - t0)
        worst_connect = 1000 * (t1 - t0)
    times.append(1000 * (time.monotonic() - t0))
    s.close()
    time.sleep(0.1)
times.sort()
median = (times[4] + times[5]) / 2
print(f"measured: root's brief during the storm, {sys.argv[2]}: median {median:.1f} ms, worst of 10 {worst:.1f} ms (connect {worst_connect:.1f} ms of it)")
sys.exit(0 if median < float(sys.argv[3]) and worst < 3000 else 1)
PY
	touch "$WORK/storm.stop"
	wait "$STORM_PID"
}
root_query "quiet socket" 1000

# The load: 255 watchers that never read (as root: privileged, so only
# the total cap applies) and 20 unprivileged clients sending 1 MiB lines.
python3 - "$SOCK" <<'PY' &
import socket, sys, time
ws = []
for _ in range(255):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(sys.argv[1])
    s.sendall(b"watch\n")
    ws.append(s)
time.sleep(300)
PY
WATCH_PID=$!
as_nobody python3 - "$SOCK" <<'PY' &
import socket, sys, threading, time
line = b"A" * (1 << 20) + b"\n"
def hammer():
    end = time.monotonic() + 300
    while time.monotonic() < end:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect(sys.argv[1])
            s.sendall(line)
            s.recv(4096)
        except OSError:
            pass
        finally:
            s.close()
for _ in range(20):
    threading.Thread(target=hammer, daemon=True).start()
time.sleep(300)
PY
HAMMER_PID=$!
sleep 2

root_query "under socket load" 1000

phase "255 watchers + 20 clients sending 1 MiB lines" 4000 15
load_p50=$(pct 50) load_p99=$(pct 99)
echo "measured: repair of a re-created slave during carrier flaps: quiet socket p50 $quiet_p50 ms p99 $quiet_p99 ms; under socket load p50 $load_p50 ms p99 $load_p99 ms"
kill "$WATCH_PID" "$HAMMER_PID" 2>/dev/null || true

# The guest has one CPU, shared with the storm, the load's own processes
# and the kernel: compare within this run.  The median under load within
# 200 ms or three times the quiet one, and every repair within 2 s (before the
# loop served the kernel first: 20 s).
bound=$(awk -v q="$quiet_p50" 'BEGIN { print (3 * q > 200 ? 3 * q : 200) }')
awk -v ms="$load_p50" -v b="$bound" 'BEGIN { exit !(ms <= b) }' ||
	fail "median repair $load_p50 ms under load (bound $bound ms)"
for ms in "${times[@]}"; do
	awk -v ms="$ms" 'BEGIN { exit !(ms <= 2000) }' || fail "a repair took $ms ms under load"
done
kill -0 "$BONDD_PID" || fail "bondd died"
