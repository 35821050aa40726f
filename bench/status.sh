#!/bin/bash
# SPDX-License-Identifier: MIT
#
# status.sh: the status socket's speed, in the sandbox kernel.  A bond of
# four veth slaves under bondd; then status-qps with 1, 8 and 64 clients
# (proc and json requests), and the wall time of one `bondd-status` next
# to one `cat /proc/net/bonding/bond0` (process start included: what an
# admin or a monitoring agent pays).  Runs under uml-boot (bench/run) or
# natively in a private network namespace; needs BUILD_DIR.
. "$(dirname "$0")/../tests/sandbox/lib.sh"
: "${OUT:=${GUEST_OUT:-/tmp}}"
SOCK=$OUT/bench-status.sock
NS=bench-status

ip netns add $NS
trap 'kill $(ip netns pids $NS) 2>/dev/null; ip netns del $NS' EXIT
in_ns() { ip netns exec $NS "$@"; }
batch=""
for i in 1 2 3 4; do batch+="link add e$i type veth peer name p$i"$'\n'"link set p$i up"$'\n'; done
in_ns ip -batch - <<<"$batch"
printf '[bond0]\nmode = balance-rr\nmiimon = 100\nslaves = e1 e2 e3 e4\n' >"$OUT/bench-status.conf"
in_ns "$BUILD_DIR/src/bondd" --config "$OUT/bench-status.conf" --socket "$SOCK" 2>"$OUT/bench-status-bondd.log" &
healthy() { in_ns "$BUILD_DIR/src/bondd-status" --socket "$SOCK" --brief >/dev/null 2>&1; }
wait_until 20 healthy || { cat "$OUT/bench-status-bondd.log"; fail "bond0 did not become healthy"; }

echo "### status socket: queries per second (closed loop, one request in flight per client)"
for req in proc json; do
	in_ns "$BUILD_DIR/bench/status-qps" --socket "$SOCK" --bond bond0 --request $req \
		--seconds "${BENCH_STATUS_SECONDS:-3}" 1 8 64
done

# median_ms CMD...: the median wall time of 11 runs of CMD, process start included.
median_ms() {
	local t=() i s e
	for i in {1..11}; do
		s=${EPOCHREALTIME//[!0-9]/}
		"$@" >/dev/null
		e=${EPOCHREALTIME//[!0-9]/}
		t+=($(((e - s) / 100)))
	done
	mapfile -t t <<<"$(printf '%s\n' "${t[@]}" | sort -n)"
	printf '%d.%d' $((t[5] / 10)) $((t[5] % 10))
}
echo
echo "### one call, process start included (median of 11)"
echo "bondd-status bond0:            $(median_ms in_ns "$BUILD_DIR/src/bondd-status" --socket "$SOCK" bond0) ms"
echo "cat /proc/net/bonding/bond0:   $(median_ms in_ns cat /proc/net/bonding/bond0) ms"
echo "(both include starting ip netns exec and the program itself, which dominates)"

# --- repairs under socket load ---------------------------------------------
# A slave of bond0 deleted and re-created again and again during carrier
# flaps of e3 and e4; bondwatch times each repair from the new device's
# appearance to the bond being whole, from the kernel's own events.  Once
# with a quiet socket, once with 255 watchers that never read and 20
# clients sending 1 MiB request lines in a loop; the two side by side.
BONDWATCH=$BUILD_DIR/tests/sandbox/bondwatch
echo
echo "### repair of a re-created slave during carrier flaps, quiet socket vs socket load"
if [[ ! -x $BONDWATCH ]]; then
	echo "not measured: $BONDWATCH is not built"
	exit 0
fi
ROUNDS=$( ((${BENCH_QUICK:-0})) && echo 3 || echo 25)
storm() {
	local batch="" i
	for ((i = 0; i < 50; i++)); do
		batch+="link set p3 down"$'\n'"link set p3 up"$'\n'"link set p4 down"$'\n'"link set p4 up"$'\n'
	done
	while [[ ! -e $OUT/bench-storm.stop ]]; do
		in_ns ip -batch - <<<"$batch"
		echo 100 >>"$OUT/bench-storm.count"
		sleep 0.2
	done
}
# phase LABEL: ROUNDS repairs during the storm; prints p50 and p99.
phase() {
	local times=() r line ms
	: >"$OUT/bench-storm.count"
	rm -f "$OUT/bench-storm.stop"
	storm &
	local storm_pid=$!
	for ((r = 0; r < ROUNDS; r++)); do
		in_ns ip link del e2 2>/dev/null || true
		in_ns ip link del p2 2>/dev/null || true
		in_ns "$BONDWATCH" --bond bond0 --slaves e1,e3,e4 --timeout 10 >/dev/null || true
		: >"$OUT/bench-watch.out" # before it starts: no "watching" left from the last round
		in_ns "$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --timeout 10 --after-new e2 \
			>"$OUT/bench-watch.out" 2>&1 &
		local w=$!
		until grep -q watching "$OUT/bench-watch.out" 2>/dev/null; do sleep 0.01; done
		in_ns ip -batch - <<<$'link add e2 type veth peer name p2\nlink set p2 up' || true
		wait "$w" || { echo "not whole: $(tr '\n' ' ' <"$OUT/bench-watch.out")"; continue; }
		line=$(grep 'whole after' "$OUT/bench-watch.out")
		ms=${line#whole after }
		times+=("${ms% ms}")
	done
	touch "$OUT/bench-storm.stop"
	wait "$storm_pid"
	printf '%s\n' "${times[@]}" | sort -g | awk -v label="$1" -v flaps="$(awk '{ n += $1 } END { print n }' "$OUT/bench-storm.count")" '
		{ v[NR] = $1 }
		END {
			p50 = v[int((50 * NR + 99) / 100)]; p99 = v[int((99 * NR + 99) / 100)]
			printf "%-46s repairs %3d  p50 %8.1f ms  p99 %8.1f ms  max %8.1f ms  (%d flaps)\n", label, NR, p50, p99, v[NR], flaps
		}'
}
phase "quiet socket"
in_ns python3 - "$SOCK" <<'PY' &
import socket, sys, threading, time
ws = []
for _ in range(255):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(sys.argv[1])
    s.sendall(b"watch\n")
    ws.append(s)
line = b"A" * (1 << 20) + b"\n"
def hammer():
    while True:
        try:
            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            c.settimeout(5)
            c.connect(sys.argv[1])
            c.sendall(line)
            c.recv(4096)
        except OSError:
            pass
        finally:
            c.close()
for _ in range(20):
    threading.Thread(target=hammer, daemon=True).start()
time.sleep(3600)
PY
load_pid=$!
sleep 2
phase "255 watchers + 20 clients sending 1 MiB lines"
kill "$load_pid" 2>/dev/null || true
echo "(the bond's slaves are veths in the benchmark's namespace; the guest has one CPU, shared by the storm, the load's own processes and bondd)"
