#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scale.sh: bondd as the bonds multiply (issue 34), run by bench/guest.sh in
# the sandbox kernel.  For each mode (balance-rr, 802.3ad) and size (1, 16,
# 64 and 256 bonds of 4 slaves; --quick: 1 and 16), one bondd in a
# namespace of its own with the link check and LLDP on: bonds b0..b(N-2) of
# dummy slaves, and b(N-1) of four veths e1..e4 (peers in another
# namespace), the one whose slave is re-created.  Per size:
#   - open files (/proc/PID/fd) and resident memory once every bond is
#     whole (nlclock, from the kernel's events), and what the start cost:
#     bondd's user and system CPU then, and its kernel requests;
#   - bondd's CPU per reply of --brief, --json and --prometheus of every
#     bond (its schedstat run time over REPLIES replies, divided), and the
#     reply's time at the client (median);
#   - a slave of b(N-1) deleted and created again ROUNDS times (e2 in
#     balance-rr, which puts it back at its place; e4 in 802.3ad, where it
#     joins at the end): the time to the bond whole again, by nlclock (p50,
#     p99, max);
#   - wake-ups (context switches) over IDLE seconds with nothing happening.
# One JSON line per size and mode to $RAW ({"part": "scale", ...}).
#
# Environment: BUILD_DIR, RAW, OUT, QUICK (1: sizes 1 and 16, few rounds).
. "$(dirname "$0")/../tests/sandbox/lib.sh"
trap - ERR
set +e
BONDD=$BUILD_DIR/src/bondd
STATUS=$BUILD_DIR/src/bondd-status
NLCLOCK=$BUILD_DIR/bench/nlclock
: "${RAW:?}" "${OUT:?}" "${QUICK:=0}"
if ((QUICK)); then
	SIZES="1 16" ROUNDS=5 REPLIES=3 IDLE=2
else
	# (the guest's CPU clock ticks every 10 ms: replies are counted by the
	# dozen)
	SIZES="1 16 64 256" ROUNDS=50 REPLIES=30 IDLE=10
fi
SIZES=${SCALE_SIZES:-$SIZES}
# (SCALE_SIZES, SCALE_MODES: a partial run, by hand)

ns_del() { local ns p; for ns in "$@"; do for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p"; done; ip netns del "$ns" 2>/dev/null; done; }
runtime_ns() { local a b c; read -r a b c <"/proc/$1/schedstat"; echo "$a"; }
switches() {
	local key val n=0
	while read -r key val; do [[ $key == *ctxt_switches: ]] && n=$((n + val)); done <"/proc/$1/status"
	echo "$n"
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "null")}'; }

# one MODE N
one() {
	local mode=$1 n=$2 last=$(($2 - 1)) b s batch="" conf="$OUT/scale.conf" spec=() pid
	ip netns add sc && ip netns add scp
	ip netns exec sc sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	: >"$conf"
	for ((b = 0; b < n; b++)); do
		local slaves
		if ((b == last)); then
			slaves="e1 e2 e3 e4"
			for s in 1 2 3 4; do batch+="link add e$s type veth peer name p$s netns scp"$'\n'; done
		else
			slaves="d${b}a d${b}b d${b}c d${b}d"
			for s in a b c d; do batch+="link add d$b$s type dummy"$'\n'; done
		fi
		printf '[b%d]\nmode = %s\nmiimon = 100\nmtu = 9000\nlink_check = yes\nlldp = yes\nslaves = %s\n' \
			"$b" "$mode" "$slaves" >>"$conf"
		spec+=("b$b=${slaves// /,}")
	done
	ip -n sc -batch - <<<"$batch"
	ip -n scp -batch - <<<"link set p1 up
link set p2 up
link set p3 up
link set p4 up"
	: >"$OUT/scale-bondd.log"
	local t0=${EPOCHREALTIME//[!0-9]/}
	ip netns exec sc "$BONDD" --config "$conf" --socket /run/bench-scale.sock >>"$OUT/scale-bondd.log" 2>&1 &
	pid=$!
	ip netns exec sc "$NLCLOCK" --mtu 9000 --timeout 120 "${spec[@]}" >/dev/null ||
		echo "bench: scale: $mode x $n: not every bond whole" >&2
	local up_ms=$(((${EPOCHREALTIME//[!0-9]/} - t0) / 1000))
	# What the start cost bondd (user) and the kernel in bondd's requests
	# (system), in clock ticks of 10 ms, and how many requests it made
	# ("apply:" lines): the start's time per request shows whether it
	# grows faster than the bonds.
	local stat up_user up_sys up_actions
	read -r stat <"/proc/$pid/stat"
	stat=${stat##*) }
	read -ra stat <<<"$stat"
	up_user=$((stat[11] * 10)) up_sys=$((stat[12] * 10))
	nap 3 # the link check's first checks and the carrier events after the last bond
	# (counted after the nap: a plan's lines are written once its last
	# request is answered, so a long plan's come after the bonds are whole)
	up_actions=$(grep -c ': apply: ' "$OUT/scale-bondd.log")
	local fds=0 f rss=0 key val
	for f in /proc/"$pid"/fd/*; do fds=$((fds + 1)); done
	while read -r key val _; do [[ $key == VmRSS: ]] && rss=$val; done <"/proc/$pid/status"
	local fmt json="" r c0 c1 w0 w1 times=()
	for fmt in brief json prometheus; do
		times=()
		c0=$(runtime_ns "$pid")
		for ((r = 0; r < REPLIES; r++)); do
			w0=${EPOCHREALTIME//[!0-9]/}
			ip netns exec sc "$STATUS" --socket /run/bench-scale.sock "--$fmt" >/dev/null 2>&1
			w1=${EPOCHREALTIME//[!0-9]/}
			times+=($(((w1 - w0) / 100)))
		done
		c1=$(runtime_ns "$pid")
		local per=$(((c1 - c0) / REPLIES / 10000)) wall
		wall=$(median "${times[@]}")
		json+=", \"cpu_${fmt}_ms\": $((per / 100)).$(printf '%02d' $((per % 100))), \"reply_${fmt}_ms\": $((wall / 10)).$((wall % 10))"
	done
	# balance-rr puts a returning slave back at its place (releasing
	# those after it: the heavier repair); 802.3ad lets it join at the
	# end, so there the last slave is the one re-created.
	local rounds victim=e2
	[[ $mode == 802.3ad ]] && victim=e4
	# (in round order too: the first follows the status replies above,
	# each a copy-on-write fork of bondd, whose next writes fault)
	local in_order
	in_order=$(ip netns exec sc "$NLCLOCK" --mtu 9000 --drift recreate:$victim --peer-ns scp --rounds "$ROUNDS" \
		--timeout 10 "b$last=e1,e2,e3,e4" | sed -n 's/.*"ms": \([0-9.]*\),.*/\1/p' | tr '\n' ' ')
	rounds=$(printf '%s\n' $in_order | sort -n | tr '\n' ' ')
	local p50 p99 max k first
	read -ra t <<<"$rounds"
	read -r first _ <<<"$in_order"
	k=${#t[@]}
	if ((k)); then
		p50=${t[$(((k - 1) / 2))]} p99=${t[$(((k * 99 + 99) / 100 - 1))]} max=${t[$((k - 1))]}
	else
		p50=null p99=null max=null
	fi
	nap 2
	w0=$(switches "$pid") c0=$(runtime_ns "$pid")
	nap "$IDLE"
	w1=$(switches "$pid") c1=$(runtime_ns "$pid")
	local warnings
	warnings=$(grep -c -e 'Too many open files' -e 'no such interface' "$OUT/scale-bondd.log")
	echo "{\"part\": \"scale\", \"mode\": \"$mode\", \"bonds\": $n, \"slaves\": $((4 * n)), \"up_ms\": $up_ms, \"up_user_ms\": $up_user, \"up_sys_ms\": $up_sys, \"up_actions\": $up_actions, \"fds\": $fds, \"rss_kib\": $rss$json, \"repair_slave\": \"$victim\", \"repair_rounds\": $k, \"repair_p50_ms\": $p50, \"repair_p99_ms\": $p99, \"repair_max_ms\": $max, \"repair_first_ms\": ${first:-null}, \"repair_ms\": [$(echo $in_order | tr ' ' ',')], \"idle_seconds\": $IDLE, \"idle_wakeups\": $((w1 - w0)), \"idle_cpu_ms\": $(((c1 - c0) / 1000000)), \"limit_lines\": $warnings}" >>"$RAW"
	kill "$pid"; wait "$pid" 2>/dev/null
	ns_del sc scp
}

for mode in ${SCALE_MODES:-balance-rr 802.3ad}; do
	for n in $SIZES; do
		echo "bench: scale: $mode x $n bonds" >&2
		one "$mode" "$n"
	done
done
