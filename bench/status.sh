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
