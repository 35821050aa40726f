#!/bin/bash
# SPDX-License-Identifier: MIT
#
# guest.sh: the benchmark parts, run inside the sandbox kernel by bench/run
# (under tests/sandbox/uml-boot, or natively in a private mount namespace).
# Each figure is one JSON line appended to $BENCH_OUT/raw.jsonl, and each
# distinct command line run for a figure one "command" line there too;
# bench/report.py turns them into RESULTS.md.  Every time is taken from
# outside bondd: by bench/nlclock, a stopwatch on the kernel's link events
# at real-time priority, never from bondd's own log.
#
# Environment: BUILD_DIR, BENCH_OUT, BENCH_QUICK (1: a short smoke run),
# BENCH_PARTS (default "dataplane recovery priority cold status linkcheck flood scale"; footprint is
# measured on the bondd of the cold part).
. "$(dirname "$0")/../tests/sandbox/lib.sh"
trap - ERR
set +e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${BENCH_OUT:?}
RAW=$OUT/raw.jsonl
BONDD=$BUILD_DIR/src/bondd
NLCLOCK=$BUILD_DIR/bench/nlclock
QUICK=${BENCH_QUICK:-0}
PARTS=${BENCH_PARTS:-dataplane recovery priority cold status linkcheck flood scale}
RATE_MBIT=200
COLD_BONDS=32

if ((QUICK)); then
	SECS=2 RUNS=1 ROUNDS=10 NS_LIST="1 2" MTUS="9000" COLD_RUNS=1 IDLE=2 SETTLE=1
else
	SECS=5 RUNS=5 ROUNDS=100 NS_LIST="1 2 3 4" MTUS="1500 9000" COLD_RUNS=3 IDLE=10 SETTLE=3
fi
# For a partial data-plane run (bench/run passes BENCH_NS_LIST, BENCH_MTUS
# and BENCH_RUNS through).
# Lists come comma-separated from the kernel command line.
NS_LIST=${BENCH_NS_LIST:-$NS_LIST} MTUS=${BENCH_MTUS:-$MTUS} RUNS=${BENCH_RUNS:-$RUNS}
NS_LIST=${NS_LIST//,/ } MTUS=${MTUS//,/ }

emit() { echo "$1" >>"$RAW"; }
log() { echo "bench: $*" >&2; }
# command PART TEXT: records a command line as it was run (once per text).
declare -A SEEN
command_line() {
	[[ -n ${SEEN["$1 $2"]:-} ]] && return
	SEEN["$1 $2"]=1
	local t=${2//\\/\\\\}
	t=${t//\"/\\\"}
	emit "{\"part\": \"command\", \"of\": \"$1\", \"text\": \"$t\"}"
}
now_us() { REPLY=${EPOCHREALTIME//[!0-9]/}; }
kill_ns() {
	local ns p
	for ns in "$@"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null; done
		ip netns del "$ns" 2>/dev/null
	done
}
file_has() { local l; while IFS= read -r l; do [[ $l == *"$2"* ]] && return 0; done <"$1"; return 1; }
# conf FILE BOND MODE MTU ADDR SLAVES...: appends a bondd.conf section.
conf() {
	local f=$1 b=$2 mode=$3 mtu=$4 addr=$5
	shift 5
	printf '[%s]\nmode = %s\nmiimon = 100\nmtu = %s\nslaves = %s\n' "$b" "$mode" "$mtu" "$*" >>"$f"
	[[ -z $addr ]] || printf 'address = %s\n' "$addr" >>"$f"
}
declare -A BONDD_PID
# start_bondd NS CONF NAME: bondd in NS, its log in $OUT/NAME.log; waits for "ready".
start_bondd() {
	: >"$OUT/$3.log"
	ip netns exec "$1" "$BONDD" --config "$2" --socket "/run/bench-$3.sock" >>"$OUT/$3.log" 2>&1 &
	BONDD_PID[$3]=$!
	wait_until 30 file_has "$OUT/$3.log" ready || { log "bondd $3 did not start"; cat "$OUT/$3.log" >&2; return 1; }
}
# whole NS BOND=SLAVES... [--mtu N]: waits (20 s at most) until the bonds are whole.
whole() {
	local ns=$1
	shift
	ip netns exec "$ns" "$NLCLOCK" --timeout 20 "$@" >/dev/null
}

# --- 1. data plane -----------------------------------------------------
dp_setup() { # N MTU MODE
	local n=$1 mtu=$2 mode=$3 i batch="" slaves=() s
	ip netns add dpa; ip netns add dpb
	for ((i = 1; i <= n; i++)); do batch+="link add e$i type veth peer name e$i netns dpb"$'\n'; slaves+=("e$i"); done
	ip -n dpa -batch - <<<"$batch"
	ip -n dpa link set lo up; ip -n dpb link set lo up
	for ((i = 1; i <= n; i++)); do
		tc -n dpa qdisc add dev "e$i" root tbf rate ${RATE_MBIT}mbit burst 64kb latency 20ms
		tc -n dpb qdisc add dev "e$i" root tbf rate ${RATE_MBIT}mbit burst 64kb latency 20ms
	done
	command_line dataplane "tc -n dpa qdisc add dev eI root tbf rate ${RATE_MBIT}mbit burst 64kb latency 20ms (each veth, both ends)"
	rm -f "$OUT/dpa.conf" "$OUT/dpb.conf"
	conf "$OUT/dpa.conf" bond0 "$mode" "$mtu" 10.88.0.1/24 "${slaves[@]}"
	conf "$OUT/dpb.conf" bond0 "$mode" "$mtu" 10.88.0.2/24 "${slaves[@]}"
	command_line dataplane "ip netns exec dpa bondd --config dpa.conf  # [bond0] mode = $mode, miimon = 100, mtu = $mtu, slaves = ${slaves[*]}, address = 10.88.0.1/24 (dpb: 10.88.0.2)"
	start_bondd dpa "$OUT/dpa.conf" dpa && start_bondd dpb "$OUT/dpb.conf" dpb || return 1
	s=$(IFS=,; echo "${slaves[*]}")
	whole dpa --mtu "$mtu" "bond0=$s" && whole dpb --mtu "$mtu" "bond0=$s"
}
# The TCP settings compared, on both hosts: the kernel's defaults, the
# seeds' machine-wide tuning one step at a time, the per-route reordering
# metric (set by hand: bondd does not offer it, see RESULTS.md), and bondd's
# per-bond tcp_congestion (the machine-wide sysctls left at their defaults).
TUNINGS=${BENCH_TUNINGS:-"default reorder reorder+bbr route-reorder bondd-bbr"}
TUNINGS=${TUNINGS//,/ }
# The other modes' one-stream runs (BENCH_DP_MODES="" drops them).
DP_MODES=${BENCH_DP_MODES-"balance-xor 802.3ad"}
DP_MODES=${DP_MODES//,/ }
# connected_route NS ADDR [METRICS...]: the kernel's connected route of
# ADDR/24 on bond0, rewritten with METRICS (none: as the kernel made it).
connected_route() {
	local ns=$1 a=$2
	shift 2
	ip -n "$ns" route replace 10.88.0.0/24 dev bond0 proto kernel scope link src "$a" "$@"
}
# bondd_cc NAME|"": tcp_congestion in both bondds' configs, then a reload;
# waits (5 s at most) until bondd has set it on both routes.
bondd_cc() {
	local ns f
	for ns in "${DP_NS[@]}"; do
		f=$OUT/$ns.conf
		sed -i '/^tcp_congestion/d' "$f"
		[[ -z $1 ]] || echo "tcp_congestion = $1" >>"$f"
		kill -HUP "${BONDD_PID[$ns]}"
	done
	route_has() { ip -n "$1" route show 10.88.0.0/24 | grep -q "congctl $2"; }
	route_plain() { ! ip -n "$1" route show 10.88.0.0/24 | grep -q congctl; }
	for ns in "${DP_NS[@]}"; do
		if [[ -n $1 ]]; then
			wait_until 5 route_has "$ns" "$1" || log "bondd did not set $1 on $ns's route"
		else
			wait_until 5 route_plain "$ns" || log "bondd did not clear $ns's route"
		fi
	done
}
dp_tune() { # default|reorder|reorder+bbr|route-reorder|bondd-bbr|4-streams
	local ns r=3 cc=cubic
	[[ $1 == reorder* ]] && r=127
	[[ $1 == reorder+bbr ]] && cc=bbr
	for ns in "${DP_NS[@]}"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_reordering=$r net.ipv4.tcp_congestion_control=$cc
	done
	command_line dataplane "ip netns exec dpa sysctl -w net.ipv4.tcp_reordering=$r net.ipv4.tcp_congestion_control=$cc  # $1, both namespaces"
	# Only the data-plane bonds have bondd and a route of their own.
	[[ -n ${BONDD_PID[dpa]:-} ]] && ip -n dpa link show bond0 >/dev/null 2>&1 || return 0
	# The route first (as the kernel made it, or with the reordering
	# metric), then bondd's setting, which keeps the route's other metrics.
	if [[ $1 == route-reorder ]]; then
		connected_route dpa 10.88.0.1 reordering 127
		connected_route dpb 10.88.0.2 reordering 127
		command_line dataplane "ip -n dpa route replace 10.88.0.0/24 dev bond0 proto kernel scope link src 10.88.0.1 reordering 127  # route-reorder (dpb: src 10.88.0.2)"
	else
		connected_route dpa 10.88.0.1
		connected_route dpb 10.88.0.2
	fi
	if [[ $1 == bondd-bbr ]]; then bondd_cc bbr; else bondd_cc ""; fi
	[[ $1 == bondd-bbr ]] && command_line dataplane "tcp_congestion = bbr in both bondd.conf, kill -HUP bondd  # bondd-bbr: bondd sets congctl bbr on bond0's connected route"
}
DP_NS=(dpa dpb)
listening() { ip netns exec dpb ss -Hltn 'sport = 5201' | grep -q .; }
tx_counters() { # N: the tx_packets, then the tx_bytes counters of e1..eN, comma-separated
	local i v c out group
	for c in packets bytes; do
		group=""
		for ((i = 1; i <= $1; i++)); do read -r v <"/sys/class/net/e$i/statistics/tx_$c"; group+="${group:+,}$v"; done
		out+="$group "
	done
	echo "$out"
}
dp_run() { # N MTU MODE TUNE RUN
	local n=$1 before after srv u0 u1 nice sys idle0 idle1 iow irq sirq busy0 busy1
	before=$(ip netns exec dpa bash -c "$(declare -f tx_counters); tx_counters $n")
	ip netns exec dpb iperf3 -s -1 >/dev/null 2>&1 &
	srv=$!
	wait_until 5 listening || { log "iperf3 server did not start"; return 1; }
	# The guest's CPU over the run (one CPU: busy + idle = the run's time).
	read -r _ u0 nice sys idle0 iow irq sirq _ </proc/stat
	busy0=$((u0 + nice + sys + irq + sirq))
	# What the stream's socket says one second before its end: its
	# congestion control and reordering degree (ss prints no reordering:
	# when it is 3).
	(nap $((SECS - 1)); ip netns exec dpa ss -tinH dst 10.88.0.2 >"$OUT/ss.txt" 2>/dev/null) &
	local sampler=$!
	# "4-streams": the same settings as default, four streams at once (what
	# the bond and the links carry when no one stream's reordering limits)
	local streams=1
	[[ $4 == 4-streams ]] && streams=4
	ip netns exec dpa iperf3 -c 10.88.0.2 -t "$SECS" -P $streams -J >"$OUT/iperf.json" 2>/dev/null
	read -r _ u1 nice sys idle1 iow irq sirq _ </proc/stat
	wait $sampler
	busy1=$((u1 + nice + sys + irq + sirq))
	command_line dataplane "ip netns exec dpb iperf3 -s -1; ip netns exec dpa iperf3 -c 10.88.0.2 -t $SECS -P $streams -J"
	wait $srv
	after=$(ip netns exec dpa bash -c "$(declare -f tx_counters); tx_counters $n")
	python3 - "$OUT/iperf.json" "$@" "$before" "$after" $((busy1 - busy0)) $((idle1 - idle0)) "$OUT/ss.txt" >>"$RAW" <<'PY'
import json, re, sys
f, n, mtu, mode, tune, run, before, after, busy, idle, ss = sys.argv[1:12]
# The data connection: the one with the most bytes acked.
best = None
try:
    for conn in re.split(r"\n(?=\S)", open(ss).read()):
        acked = re.search(r"bytes_acked:(\d+)", conn)
        if acked and (best is None or int(acked.group(1)) > best[0]):
            reo = re.search(r"reordering:(\d+)", conn)
            cc = re.search(r"\b(cubic|bbr|reno|bic|htcp|vegas|westwood|dctcp)\b", conn)
            best = (int(acked.group(1)), int(reo.group(1)) if reo else 3, cc.group(1) if cc else None)
except OSError:
    pass
delta = [[int(a) - int(b) for a, b in zip(x.split(","), y.split(","))]
         for x, y in zip(after.split(), before.split())]
try:
    e = json.load(open(f))["end"]
    mbps = e["sum_received"]["bits_per_second"] / 1e6
    retr = e["sum_sent"].get("retransmits", 0)
except (ValueError, KeyError):
    mbps, retr = None, None
print(json.dumps({"part": "dataplane", "n": int(n), "mtu": int(mtu), "mode": mode, "tune": tune,
    "run": int(run), "mbps": mbps, "retransmits": retr, "tx_packets": delta[0], "tx_bytes": delta[1],
    "cpu_busy": int(busy) / max(1, int(busy) + int(idle)),
    "ss_reordering": best[1] if best else None, "ss_cc": best[2] if best else None}))
PY
}
# dp_ceiling MTU RUN: the guest's own ceiling, one veth pair, neither shaped
# nor bonded.
dp_ceiling() {
	local mtu=$1 run=$2
	ip netns add dpa; ip netns add dpb
	ip -n dpa link add e1 mtu "$mtu" type veth peer name e1 mtu "$mtu" netns dpb
	ip -n dpa -batch - <<<"link set lo up
link set e1 up
addr add 10.88.0.1/24 dev e1"
	ip -n dpb -batch - <<<"link set lo up
link set e1 up
addr add 10.88.0.2/24 dev e1"
	command_line dataplane "ip -n dpa link add e1 mtu $mtu type veth peer name e1 mtu $mtu netns dpb  # ceiling: no tbf, no bond"
	dp_tune default
	dp_run 1 "$mtu" "no bond, no tbf" default "$run"
	kill_ns dpa dpb
}
# The configurations are interleaved run by run (run 1 of every
# configuration, then run 2 of every one, ...), each set up afresh for its
# run, so that drift on a shared machine hits every configuration alike.
part_dataplane() {
	local n mtu tune run m nx=4
	((QUICK)) && nx=2
	for ((run = 1; run <= RUNS; run++)); do
		for n in $NS_LIST; do
			for mtu in $MTUS; do
				log "data plane: run $run/$RUNS, balance-rr, $n NIC(s), MTU $mtu"
				dp_setup "$n" "$mtu" balance-rr || { log "setup failed"; kill_ns dpa dpb; continue; }
				for tune in $TUNINGS; do
					dp_tune $tune
					dp_run "$n" "$mtu" balance-rr $tune $run
				done
				kill_ns dpa dpb
			done
		done
		for mtu in $MTUS; do
			log "data plane: run $run/$RUNS, ceiling, one unshaped veth, MTU $mtu"
			dp_ceiling "$mtu" "$run"
		done
		# Why round-robin: one stream over balance-xor or 802.3ad stays on one link.
		for m in $DP_MODES; do
			log "data plane: run $run/$RUNS, $m, $nx NICs"
			dp_setup $nx 9000 $m || { log "setup failed"; kill_ns dpa dpb; continue; }
			[[ $m == 802.3ad ]] && nap 3 # LACP: both ends in one aggregator
			dp_tune default
			dp_run $nx 9000 $m default $run
			kill_ns dpa dpb
		done
	done
}

# --- 2. recovery ---------------------------------------------------------
part_recovery() {
	local i batch="" kind
	ip netns add rec; ip netns add recp
	for i in 1 2 3 4; do batch+="link add e$i type veth peer name p$i netns recp"$'\n'; done
	ip -n rec -batch - <<<"$batch"
	batch=""
	for i in 1 2 3 4; do batch+="link set p$i up"$'\n'; done
	ip -n recp -batch - <<<"$batch"
	rm -f "$OUT/rec.conf"
	conf "$OUT/rec.conf" bond0 balance-rr 9000 "" e1 e2 e3 e4
	start_bondd rec "$OUT/rec.conf" rec || { kill_ns rec recp; return; }
	command_line recovery "ip netns exec rec bondd --config rec.conf  # [bond0] mode = balance-rr, miimon = 100, mtu = 9000, slaves = e1 e2 e3 e4"
	whole rec --mtu 9000 bond0=e1,e2,e3,e4 || log "the recovery bond did not come up"
	for kind in recreate:e2 mtu:e3; do
		log "recovery: $kind x $ROUNDS"
		ip netns exec rec "$NLCLOCK" --mtu 9000 --drift $kind --peer-ns recp --rounds "$ROUNDS" \
			--timeout 10 --tag "\"part\": \"recovery\", \"kind\": \"${kind%:*}\"" bond0=e1,e2,e3,e4 >>"$RAW"
		command_line recovery "ip netns exec rec nlclock --mtu 9000 --drift $kind --peer-ns recp --rounds $ROUNDS --timeout 10 bond0=e1,e2,e3,e4"
	done
	emit "{\"part\": \"recovery-log\", \"apply_lines\": $(grep -c 'apply:' "$OUT/rec.log")}"
	kill_ns rec recp
}

# --- 2b. recovery under CPU load, by scheduling priority ------------------
# The same re-created slave while LOAD_PROCS busy loops (plain processes, as
# a loaded storage node's NFS threads and compression) want the CPU: bondd
# as a plain process, at nice -15, and at SCHED_RR 1 (what bondd.service
# sets), changed on the running bondd between the runs.  nlclock, the
# stopwatch, runs at real-time priority above all of them.
LOAD_PROCS=${BENCH_LOAD_PROCS:-4}
set_sched() { # PID normal|nice-15|rr-1
	case $2 in
	normal) chrt -o -a -p 0 "$1" && renice -n 0 -p "$1" ;;
	nice-15) chrt -o -a -p 0 "$1" && renice -n -15 -p "$1" ;;
	rr-1) renice -n 0 -p "$1" && chrt -r -a -p 1 "$1" ;;
	esac >/dev/null
}
part_priority() {
	local i batch="" sched load pids=() pid
	ip netns add pri; ip netns add prip
	for i in 1 2 3 4; do batch+="link add e$i type veth peer name p$i netns prip"$'\n'; done
	ip -n pri -batch - <<<"$batch"
	batch=""
	for i in 1 2 3 4; do batch+="link set p$i up"$'\n'; done
	ip -n prip -batch - <<<"$batch"
	rm -f "$OUT/pri.conf"
	conf "$OUT/pri.conf" bond0 balance-rr 9000 "" e1 e2 e3 e4
	start_bondd pri "$OUT/pri.conf" pri || { kill_ns pri prip; return; }
	pid=${BONDD_PID[pri]}
	command_line priority "ip netns exec pri bondd --config pri.conf  # [bond0] mode = balance-rr, miimon = 100, mtu = 9000, slaves = e1 e2 e3 e4"
	whole pri --mtu 9000 bond0=e1,e2,e3,e4 || log "the priority bond did not come up"
	for load in 0 "$LOAD_PROCS"; do
		if ((load)); then
			for ((i = 0; i < load; i++)); do
				bash -c 'while :; do :; done' &
				pids+=($!)
			done
			command_line priority "bash -c 'while :; do :; done' &  # x $load, SCHED_OTHER nice 0"
		fi
		for sched in normal nice-15 rr-1; do
			((load == 0)) && [[ $sched != normal ]] && continue
			set_sched "$pid" "$sched" || { log "priority: cannot set $sched"; continue; }
			log "priority: recreate x $ROUNDS, $load busy processes, bondd $sched"
			ip netns exec pri "$NLCLOCK" --mtu 9000 --drift recreate:e2 --peer-ns prip --rounds "$ROUNDS" \
				--timeout 10 --tag "\"part\": \"priority\", \"sched\": \"$sched\", \"load\": $load" \
				bond0=e1,e2,e3,e4 >>"$RAW"
		done
	done
	command_line priority "chrt -o -a -p 0 PID; renice -n -15 -p PID | chrt -r -a -p 1 PID  # on the running bondd, between runs"
	command_line priority "ip netns exec pri nlclock --mtu 9000 --drift recreate:e2 --peer-ns prip --rounds $ROUNDS --timeout 10 bond0=e1,e2,e3,e4"
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
	wait "${pids[@]}" 2>/dev/null
	kill_ns pri prip
}

# --- 3. cold convergence, and 5. footprint -------------------------------
cold_links() {
	local b j batch=""
	ip netns add cold; ip netns add coldp
	for ((b = 0; b < COLD_BONDS; b++)); do
		for ((j = 0; j < 4; j++)); do batch+="link add s${b}_$j type veth peer name p${b}_$j netns coldp"$'\n'; done
	done
	ip -n cold -batch - <<<"$batch"
	batch=""
	for ((b = 0; b < COLD_BONDS; b++)); do for ((j = 0; j < 4; j++)); do batch+="link set p${b}_$j up"$'\n'; done; done
	ip -n coldp -batch - <<<"$batch"
}
# cold_clean PREFIX: deletes b0.. or t0.., leaving the slaves released, down, at MTU 1500.
cold_clean() {
	local b j batch=""
	for ((b = 0; b < COLD_BONDS; b++)); do batch+="link del $1$b"$'\n'; done
	ip -n cold -force -batch - <<<"$batch" 2>/dev/null
	batch=""
	for ((b = 0; b < COLD_BONDS; b++)); do for ((j = 0; j < 4; j++)); do
		batch+="link set s${b}_$j down mtu 1500"$'\n'
	done; done
	ip -n cold -force -batch - <<<"$batch" 2>/dev/null
}
# cold_specs PREFIX: nlclock's arguments for every bond or team.
cold_specs() {
	local b
	SPECS=()
	for ((b = 0; b < COLD_BONDS; b++)); do SPECS+=("$1$b=s${b}_0,s${b}_1,s${b}_2,s${b}_3"); done
}
# cold_time TOOL RUN PREFIX COMMAND...: nlclock starts COMMAND and times it.
cold_time() {
	local tool=$1 run=$2 prefix=$3 line
	shift 3
	cold_specs "$prefix"
	COLD_PID=
	# (no process substitution: the guest has no /dev/fd)
	ip netns exec cold "$NLCLOCK" --mtu 9000 --timeout 60 "${SPECS[@]}" -- "$@" >"$OUT/nlclock.out" 2>>"$OUT/cold-${tool// /}.log"
	while IFS= read -r line; do
		case $line in
		"pid "*) COLD_PID=${line#pid } ;;
		"{"*) emit "${line/\{/\{\"part\": \"cold\", \"tool\": \"$tool\", \"run\": $run, }" ;;
		esac
	done <"$OUT/nlclock.out"
}
all_whole() { # every bond checked once more, in one process
	ip netns exec cold python3 - "$COLD_BONDS" <<'PY'
import sys
for b in range(int(sys.argv[1])):
    slaves = open(f"/sys/class/net/b{b}/bonding/slaves").read().split()
    assert slaves == [f"s{b}_{j}" for j in range(4)], (b, slaves)
    for s in slaves + [f"b{b}"]:
        assert open(f"/sys/class/net/{s}/mtu").read().strip() == "9000", s
PY
}
part_cold() {
	local b j run pid pids comm
	cold_links
	rm -f "$OUT/cold.conf" "$OUT/cold.batch" "$OUT/team.batch" "$OUT/teams.sh"
	for ((b = 0; b < COLD_BONDS; b++)); do
		conf "$OUT/cold.conf" "b$b" balance-rr 9000 "" "s${b}_0" "s${b}_1" "s${b}_2" "s${b}_3"
		{
			echo "link add b$b type bond mode balance-rr miimon 100"
			echo "link set b$b mtu 9000"
			for ((j = 0; j < 4; j++)); do echo "link set s${b}_$j master b$b"; done
			echo "link set b$b up"
		} >>"$OUT/cold.batch"
		echo "link set t$b mtu 9000 up" >>"$OUT/team.batch"
		echo "teamd -d -t t$b -c '{\"runner\": {\"name\": \"roundrobin\"}, \"ports\": {\"s${b}_0\": {}, \"s${b}_1\": {}, \"s${b}_2\": {}, \"s${b}_3\": {}}}' 2>/dev/null &" >>"$OUT/teams.sh"
	done
	printf 'wait\nip -batch %s\n' "$OUT/team.batch" >>"$OUT/teams.sh"
	for ((run = 1; run <= COLD_RUNS; run++)); do
		log "cold: bondd, $COLD_BONDS bonds x 4 slaves, run $run"
		cold_time bondd $run b "$BONDD" --config "$OUT/cold.conf" --socket /run/bench-cold.sock
		command_line cold "ip netns exec cold nlclock --mtu 9000 --timeout 60 b0=s0_0,s0_1,s0_2,s0_3 ... b31=s31_0,...,s31_3 -- bondd --config cold.conf --socket /run/bench-cold.sock"
		all_whole || log "bondd: not every bond is whole"
		if ((run == COLD_RUNS)) && [[ -n $COLD_PID ]]; then footprint bondd "$COLD_PID"; fi
		for pid in $(ip netns pids cold); do kill "$pid"; done
		nap 0.2
		cold_clean b

		log "cold: ip -batch, run $run"
		cold_time "ip -batch" $run b ip -batch "$OUT/cold.batch"
		command_line cold "ip netns exec cold nlclock ... -- ip -batch cold.batch  # per bond: link add bI type bond mode balance-rr miimon 100; link set bI mtu 9000; link set sI_J master bI (J = 0..3); link set bI up"
		all_whole || log "ip -batch: not every bond is whole"
		cold_clean b
	done
	cold_profile
	if command -v teamd >/dev/null && [[ -d /sys/module/team ]]; then
		for ((run = 1; run <= COLD_RUNS; run++)); do
			log "cold: teamd, run $run"
			cold_time "teamd" $run t bash "$OUT/teams.sh"
			command_line cold "ip netns exec cold nlclock ... -- bash teams.sh  # 32 x teamd -d -t tI -c '{\"runner\": {\"name\": \"roundrobin\"}, \"ports\": {\"sI_0\": {}, ... }}' &, wait, then one ip -batch: link set tI mtu 9000 up"
			if ((run == COLD_RUNS)); then
				pids=()
				for pid in $(ip netns pids cold); do
					read -r comm <"/proc/$pid/comm" && [[ $comm == teamd ]] && pids+=("$pid")
				done
				footprint teamd "${pids[@]}"
			fi
			for ((b = 0; b < COLD_BONDS; b++)); do ip netns exec cold teamd -k -t "t$b" >/dev/null 2>&1; done
			nap 0.5
			cold_clean t
		done
	else
		emit '{"part": "cold", "tool": "teamd", "skipped": "teamd or the team driver is missing"}'
	fi
	kill_ns cold coldp
}
# cold_profile: the same two convergences once more, untimed, under
# `strace -c`, for the count of each system call the tools make.
cold_profile() {
	command -v strace >/dev/null || { log "no strace: no system call profile"; return; }
	local pid comm
	log "cold: system calls of bondd and of ip -batch (strace -c, untimed)"
	ip netns exec cold strace -f -c -o "$OUT/strace-bondd.txt" "$BONDD" --config "$OUT/cold.conf" \
		--socket /run/bench-cold.sock 2>>"$OUT/cold-bondd.log" &
	cold_specs b
	whole cold --timeout 60 --mtu 9000 "${SPECS[@]}"
	for pid in $(ip netns pids cold); do
		read -r comm <"/proc/$pid/comm" && [[ $comm == bondd ]] && kill "$pid"
	done
	wait $!
	cold_clean b
	ip netns exec cold strace -c -o "$OUT/strace-ip.txt" ip -batch "$OUT/cold.batch"
	cold_clean b
	python3 - "$OUT/strace-bondd.txt" "$OUT/strace-ip.txt" >>"$RAW" <<'PY'
import json, sys
for tool, f in zip(("bondd", "ip -batch"), sys.argv[1:]):
    counts = {}
    try:
        for line in open(f):
            x = line.split()
            if len(x) >= 5 and x[0][0].isdigit() and x[-1] != "total" and x[3].isdigit():
                counts[x[-1]] = int(x[3])
    except OSError:
        continue
    print(json.dumps({"part": "syscalls", "tool": tool, "counts": counts}))
PY
	command_line cold "ip netns exec cold strace -f -c -o strace-bondd.txt bondd --config cold.conf ...; ip netns exec cold strace -c -o strace-ip.txt ip -batch cold.batch  # untimed, for the counts"
	ip netns exec cold "$NLCLOCK" --syscall-cost >>"$RAW"
}
# footprint NAME PID...: resident memory, then wake-ups over $IDLE idle seconds.
footprint() {
	local name=$1 pid t rss=0 v s0=0 s1=0 c0=0 c1=0 key val
	shift
	# Idle means after the last link event of the convergence (carrier
	# changes come in for a while after the last bond is whole).
	nap "$SETTLE"
	for pid in "$@"; do
		while read -r key val _; do [[ $key == VmRSS: ]] && rss=$((rss + val)); done <"/proc/$pid/status"
		for t in /proc/"$pid"/task/*; do
			read -r _ _ v <"$t/schedstat"; s0=$((s0 + v))
			while read -r key val; do [[ $key == *ctxt_switches: ]] && c0=$((c0 + val)); done <"$t/status"
		done
	done
	log "footprint: $name, $IDLE idle seconds"
	ip -n cold monitor link address >"$OUT/idle-events.txt" 2>/dev/null &
	local mon=$! events=0 line
	nap "$IDLE"
	kill $mon; wait $mon 2>/dev/null
	while IFS= read -r line; do [[ $line == [0-9]*:* || $line == Deleted* ]] && events=$((events + 1)); done <"$OUT/idle-events.txt"
	for pid in "$@"; do
		for t in /proc/"$pid"/task/*; do
			read -r _ _ v <"$t/schedstat"; s1=$((s1 + v))
			while read -r key val; do [[ $key == *ctxt_switches: ]] && c1=$((c1 + val)); done <"$t/status"
		done
	done
	emit "{\"part\": \"footprint\", \"tool\": \"$name\", \"processes\": $#, \"bonds\": $COLD_BONDS, \"rss_kib\": $rss, \"idle_seconds\": $IDLE, \"runs\": $((s1 - s0)), \"context_switches\": $((c1 - c0)), \"link_events\": $events, \"settle_seconds\": $SETTLE}"
}

# --- 4. status -----------------------------------------------------------
part_status() {
	if [[ ! -x $BUILD_DIR/src/bondd-status || ! -x $BUILD_DIR/bench/status-qps ]]; then
		echo "not available yet: bondd-status or bench/status-qps is not built" >"$OUT/status.txt"
		return
	fi
	log "status"
	BENCH_STATUS_SECONDS=$( ((QUICK)) && echo 1 || echo 3) OUT=$OUT bash "$HERE/status.sh" >"$OUT/status.txt" 2>&1
	if command -v teamdctl >/dev/null && [[ -d /sys/module/team ]]; then
		local i t=() s
		ip netns add st
		for i in 1 2 3 4; do ip -n st link add "e$i" type veth peer name "p$i"; done
		ip netns exec st teamd -d -t t0 -c '{"runner": {"name": "roundrobin"}, "ports": {"e1": {}, "e2": {}, "e3": {}, "e4": {}}}' >/dev/null 2>&1
		tdump() { ip netns exec st teamdctl t0 state dump >/dev/null 2>&1; }
		wait_until 10 tdump
		for i in {1..11}; do now_us; s=$REPLY; tdump; now_us; t+=($(((REPLY - s) / 100))); done
		mapfile -t t <<<"$(printf '%s\n' "${t[@]}" | sort -n)"
		echo "teamdctl t0 state dump:        $((t[5] / 10)).$((t[5] % 10)) ms  (a round-robin team of 4 veths, same method)" >>"$OUT/status.txt"
		ip netns exec st teamd -k -t t0 >/dev/null 2>&1
		kill_ns st
	fi
}

# --- 8. scale ---------------------------------------------------------------
part_scale() {
	log "scale"
	QUICK=$QUICK RAW=$RAW OUT=$OUT bash "$HERE/scale.sh"
	command_line scale "bench/scale.sh  # 1, 16, 64, 256 bonds of 4 slaves (dummies; the last bond's veths), balance-rr and 802.3ad, link check and LLDP on"
}

# --- 6. link check ---------------------------------------------------------
part_linkcheck() {
	log "linkcheck"
	ROUNDS=$( ((QUICK)) && echo 2 || echo 8) RAW=$RAW OUT=$OUT bash "$HERE/linkcheck.sh"
	command_line linkcheck "bench/linkcheck.sh  # 3 hosts x 4 slaves, per-port VLANs; host a's e2 re-created, its status polled"
}

# --- 8. the status socket under a flood, bondd plain and at SCHED_RR 1 ----
# One unprivileged user (nobody) floods bondd's status socket: FLOOD_SENDERS
# clients sending 1 MiB request lines and connecting again whenever bondd
# drops them, and FLOOD_WATCHERS idle watchers (bench/flood load; issue 31).
# Two bondds side by side, each with a bond of its own in namespaces of its
# own: one a plain process, one as bondd.service starts it: SCHED_RR 1 with
# SCHED_RESET_ON_FORK (CPUSchedulingResetOnFork=yes) and RLIMIT_RTTIME
# 1 s:10 s (LimitRTTIME=1s:10s).  The flood goes to one at a time (the other
# idles, at no cost), the modes taking turns round by round, so that a
# shared host's drift hits both alike.  Per round: the pace of a
# normal-priority CPU-bound process (bench/flood spin) with no flood, then
# beside each bondd under the flood, with bondd's CPU (its whole process
# tree).  Then, per mode under the flood, re-created slaves timed by
# nlclock and root's queries timed by a harness at SCHED_RR 50, above bondd
# (../shared/SANDBOX.md: a harness below bondd times its own wait).
FLOOD=$BUILD_DIR/bench/flood
FLOOD_SENDERS=20 FLOOD_WATCHERS=200
if ((QUICK)); then
	FLOOD_ROUNDS=1 FLOOD_PACE=0.5 FLOOD_RAMP=0.2 FLOOD_REPAIRS=2 FLOOD_QUERIES=1 FLOOD_INPROC=2 FLOOD_BASE_QUERIES=0
else
	FLOOD_ROUNDS=3 FLOOD_PACE=5 FLOOD_RAMP=1 FLOOD_REPAIRS=20 FLOOD_QUERIES=10 FLOOD_INPROC=20 FLOOD_BASE_QUERIES=5
fi
declare -A FLOOD_SUP
# flood_log TEXT: a progress line with the seconds since the part began.
flood_log() {
	now_us
	log "flood [+$(((REPLY - FLOOD_T0) / 1000000)).$(((REPLY - FLOOD_T0) / 100000 % 10)) s]: $*"
}
flood_sock() { REPLY=/run/bench-flood-$1.sock; }
# flood_tag MODE WHAT [MORE]: the fields put first in a line of this part.
flood_tag() { REPLY="\"part\": \"flood\", \"mode\": \"$1\", \"what\": \"$2\"${3:+, $3}"; }
# flood_emit TAG JSON: JSON (one object from bench/flood) with TAG put first.
flood_emit() { [[ $2 == "{"* ]] && emit "{$1, ${2#\{}"; }
# flood_cpu PID PID2: "TICKS PROCS US HZ CPUS" of each process tree, into
# CPU_A and CPU_B (empty for one that is gone).
flood_cpu() {
	local out
	out=$("$FLOOD" cpu "$1" "$2" 2>/dev/null)
	CPU_A=${out%%$'\n'*} CPU_B=${out#*$'\n'}
	[[ $CPU_A == "-" ]] && CPU_A=
	[[ $CPU_B == "-" ]] && CPU_B=
}
# flood_share A B: the tree's share of the guest's CPUs between samples A and B.
flood_share() {
	[[ -n $1 && -n $2 ]] || { REPLY=null; return; }
	REPLY=$(awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ")
		printf "%.4f", (y[1] - x[1]) / y[4] / ((y[3] - x[3]) / 1e6) / y[5] }')
}
# flood_restarts MODE: how many times the supervisor has started bondd again.
flood_restarts() { REPLY=$(grep -c '^bench: bondd exited' "$OUT/flood-$1.log"); }
# flood_queries MODE FLOOD(true|false) N M: root's queries from the RR-50
# harness, N whole `bondd-status --brief` calls (process start included: the
# harness forks it, and it runs at RR 50 too) and M in-process ones.
flood_queries() {
	local mode=$1 fl=$2 n=$3 m=$4 line sock
	flood_sock "$mode"
	sock=$REPLY
	((n)) && line=$(chrt -r 50 bash -c '
		ms=() failed=0
		for ((i = 0; i < $3; i++)); do
			s=${EPOCHREALTIME//[!0-9]/}
			"$1" --socket "$2" --brief >/dev/null 2>&1
			rc=$?
			e=${EPOCHREALTIME//[!0-9]/}
			# 0, 1, 2: an answer (healthy, degraded, down); 3: none.
			if ((rc <= 2)); then
				ms+=("$(((e - s) / 1000)).$(printf %03d $(((e - s) % 1000)))")
			else
				failed=$((failed + 1))
			fi
			((i + 1 < $3)) && sleep 0.2
		done
		printf "{\"request\": \"brief\", \"ms\": [%s], \"failed\": %d}\n" "$(IFS=,; echo "${ms[*]}")" "$failed"
	' flood-queries "$BUILD_DIR/src/bondd-status" "$sock" "$n")
	flood_tag "$mode" query "\"flood\": $fl, \"tool\": \"bondd-status --brief\""
	((n)) && flood_emit "$REPLY" "$line"
	((m)) || return 0
	line=$(chrt -r 50 "$FLOOD" query --socket "$sock" --request brief --count "$m" --interval-ms 100)
	flood_tag "$mode" query "\"flood\": $fl, \"tool\": \"in-process\""
	flood_emit "$REPLY" "$line"
}
# flood_start MODE: namespaces fl-MODE and flp-MODE, a bond of 4 veths, and
# bondd (plain or rr-1) under a shell that starts it again 2 s after it
# fails, as bondd.service's Restart=on-failure and RestartSec=2s do.  The
# shell is the main PID whose process tree is measured, so the CPU of a
# bondd that died (reaped into the shell's cutime) counts too.
flood_start() {
	local mode=$1 i batch="" pid sched rttime
	ip netns add "fl-$mode"; ip netns add "flp-$mode"
	for i in 1 2 3 4; do batch+="link add e$i type veth peer name p$i netns flp-$mode"$'\n'; done
	ip -n "fl-$mode" -batch - <<<"$batch"
	batch=""
	for i in 1 2 3 4; do batch+="link set p$i up"$'\n'; done
	ip -n "flp-$mode" -batch - <<<"$batch"
	flood_sock "$mode"
	local run=("$BONDD" --config "$OUT/flood.conf" --socket "$REPLY")
	if [[ $mode == rr-1 ]]; then
		run=(prlimit --rttime=1000000:10000000 chrt -r -R 1 "${run[@]}")
		command_line flood "ip netns exec fl-rr-1 prlimit --rttime=1000000:10000000 chrt -r -R 1 bondd --config flood.conf --socket $REPLY  # rr-1: as bondd.service starts it"
	else
		command_line flood "ip netns exec fl-plain bondd --config flood.conf --socket $REPLY  # plain; [bond0] mode = balance-rr, miimon = 100, mtu = 9000, slaves = e1 e2 e3 e4"
	fi
	flood_log "starting bondd $mode"
	: >"$OUT/flood-$mode.log"
	# prlimit and chrt exec what follows: the shell's child is bondd.
	ip netns exec "fl-$mode" bash -c 'while :; do
		"$@"
		rc=$?
		((rc == 0 || rc == 64 || rc == 78)) && exit $rc
		echo "bench: bondd exited with status $rc ($(kill -l $((rc - 128)) 2>/dev/null || echo exit)); starting it again in 2 s"
		sleep 2
	done' supervise "${run[@]}" >>"$OUT/flood-$mode.log" 2>&1 &
	FLOOD_SUP[$mode]=$!
	if ! wait_until 30 file_has "$OUT/flood-$mode.log" ready || ! whole "fl-$mode" --mtu 9000 bond0=e1,e2,e3,e4; then
		flood_log "bondd $mode did not start or make its bond"
		cat "$OUT/flood-$mode.log" >&2
		return 1
	fi
	pid=$(pgrep -P "${FLOOD_SUP[$mode]}" -x bondd)
	sched=$(chrt -p "$pid" | sed -n 's/.*policy: //p; s/.*priority: / /p' | tr -d '\n')
	rttime=$(prlimit --pid "$pid" --rttime --noheadings --output SOFT,HARD | tr -s ' ' ':')
	# Its child processes, if any, once it is ready: name and scheduling.
	local kid kids="" comm
	for kid in $(pgrep -P "$pid"); do
		read -r comm <"/proc/$kid/comm" || continue
		kids+="${kids:+, }\"$comm: $(chrt -p "$kid" | sed -n 's/.*policy: //p; s/.*priority: / /p' | tr -d '\n')\""
	done
	flood_tag "$mode" bondd "\"pid\": $pid, \"sched\": \"$sched\", \"rttime\": \"${rttime#:}\", \"children\": [$kids]"
	emit "{$REPLY}"
}
# flood_stop MODE: the shell first (no more restarts), then bondd (SIGTERM:
# it exits and leaves the bond as it is), then the namespaces.
flood_stop() {
	local sup=${FLOOD_SUP[$1]:-} pid
	if [[ -n $sup ]]; then
		pid=$(pgrep -P "$sup")
		kill "$sup" 2>/dev/null
		kill $pid 2>/dev/null
		wait "$sup" 2>/dev/null
		[[ -z $pid ]] || wait_until 5 eval '! kill -0 '"$pid"' 2>/dev/null'
	fi
	flood_sock "$1"
	rm -f "$REPLY"
	kill_ns "fl-$1" "flp-$1"
}
# flood_on MODE: the flood on MODE's bondd, as nobody, at normal priority;
# the harness goes above bondd meanwhile.
flood_on() {
	flood_sock "$1"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$FLOOD" load --socket "$REPLY" \
		--senders "$FLOOD_SENDERS" --watchers "$FLOOD_WATCHERS" --seconds 600 >"$OUT/flood-load.json" &
	FLOOD_PID=$!
	command_line flood "setpriv --reuid=65534 --regid=65534 --clear-groups -- flood load --socket /run/bench-flood-MODE.sock --senders $FLOOD_SENDERS --watchers $FLOOD_WATCHERS --seconds 600 &  # stopped by SIGTERM after each measurement"
	# The harness mostly waits, and what it starts is timed or sets
	# SCHED_OTHER itself; below an rr-1 bondd under the flood, a shell
	# waits seconds for each step.
	chrt -r -p 50 $$
	nap "$FLOOD_RAMP"
	flood_restarts "$1"
	FLOOD_R0=$REPLY
	flood_cpu "${FLOOD_SUP[$1]}" "$FLOOD_PID"
	FLOOD_C0=$CPU_A FLOOD_F0=$CPU_B
}
# flood_off MODE MORE: stops the flood; one "load" line: bondd's CPU and the
# flood's own over the time it was on (after the ramp), bondd's restarts
# meanwhile, what the flood did; MORE are fields put first.
flood_off() {
	local mode=$1 share secs exits
	flood_cpu "${FLOOD_SUP[$mode]}" "$FLOOD_PID"
	kill -TERM "$FLOOD_PID" 2>/dev/null
	wait "$FLOOD_PID"
	chrt -o -p 0 $$
	flood_share "$FLOOD_C0" "$CPU_A"
	share=$REPLY secs=null
	[[ -n $FLOOD_C0 && -n $CPU_A ]] && secs=$(awk -v a="$FLOOD_C0" -v b="$CPU_A" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2f", (y[3] - x[3]) / 1e6 }')
	flood_share "$FLOOD_F0" "$CPU_B"
	local fshare=$REPLY
	flood_restarts "$mode"
	local restarts=$((REPLY - FLOOD_R0))
	exits=$(sed -n 's/^bench: bondd exited with status \([0-9]*\) (\([A-Za-z0-9]*\)).*/"\1 \2"/p' "$OUT/flood-$mode.log" |
		tail -n "$restarts" | paste -sd, -)
	((restarts)) && flood_log "bondd $mode was started again $restarts time(s): ${exits//\"/}"
	flood_tag "$mode" load "$2, \"bondd_share\": $share, \"flood_share\": $fshare, \"seconds\": $secs, \"restarts\": $restarts, \"exits\": [$exits]"
	flood_emit "$REPLY" "$(cat "$OUT/flood-load.json")" || emit "{$REPLY}"
}
# flood_pace MODE ROUND FLOOD(true|false): the CPU-bound process beside MODE's bondd.
flood_pace() {
	local line
	local tree=${FLOOD_SUP[$1]:-}
	line=$("$FLOOD" spin --seconds "$FLOOD_PACE" ${tree:+--tree "$tree"})
	flood_tag "$1" pace "\"round\": $2, \"flood\": $3"
	flood_emit "$REPLY" "$line"
}
part_flood() {
	local mode round order
	[[ -x $FLOOD ]] || { log "flood: $FLOOD is not built"; return; }
	now_us
	FLOOD_T0=$REPLY
	rm -f "$OUT/flood.conf"
	conf "$OUT/flood.conf" bond0 balance-rr 9000 "" e1 e2 e3 e4
	for mode in plain rr-1; do
		flood_start "$mode" || { flood_stop plain; flood_stop rr-1; return; }
	done
	flood_log "bondd plain and rr-1 up: $FLOOD_ROUNDS round(s) of pace runs of $FLOOD_PACE s"
	for ((round = 1; round <= FLOOD_ROUNDS; round++)); do
		# No flood: both bondds idle.
		flood_pace none "$round" false
		order="plain rr-1"
		((round % 2)) || order="rr-1 plain"
		for mode in $order; do
			flood_log "round $round: the flood on bondd $mode, pace for $FLOOD_PACE s"
			flood_on "$mode"
			flood_pace "$mode" "$round" true
			flood_off "$mode" "\"phase\": \"pace\", \"round\": $round"
		done
	done
	for mode in plain rr-1; do
		flood_log "bondd $mode, no flood: $FLOOD_BASE_QUERIES + $FLOOD_BASE_QUERIES queries"
		flood_queries "$mode" false "$FLOOD_BASE_QUERIES" "$FLOOD_BASE_QUERIES"
		flood_log "bondd $mode under the flood: $FLOOD_REPAIRS re-created slaves, $FLOOD_QUERIES + $FLOOD_INPROC queries"
		flood_on "$mode"
		flood_tag "$mode" repair
		chrt -r 50 ip netns exec "fl-$mode" "$NLCLOCK" --mtu 9000 --drift recreate:e2 --peer-ns "flp-$mode" \
			--rounds "$FLOOD_REPAIRS" --timeout 10 --tag "$REPLY" bond0=e1,e2,e3,e4 >>"$RAW"
		flood_queries "$mode" true "$FLOOD_QUERIES" "$FLOOD_INPROC"
		flood_off "$mode" "\"phase\": \"repairs and queries\""
	done
	flood_log "done"
	command_line flood "flood spin --seconds $FLOOD_PACE --tree MAIN_PID  # the normal-priority process (SCHED_OTHER, nice 0); MAIN_PID: the shell that runs bondd and starts it again 2 s after it fails"
	command_line flood "chrt -r 50 ip netns exec fl-MODE nlclock --mtu 9000 --drift recreate:e2 --peer-ns flp-MODE --rounds $FLOOD_REPAIRS --timeout 10 bond0=e1,e2,e3,e4"
	command_line flood "chrt -r 50 bash -c 'bondd-status --socket /run/bench-flood-MODE.sock --brief'  # x $FLOOD_QUERIES under the flood ($FLOOD_BASE_QUERIES without), 0.2 s apart, timed in the RR-50 shell"
	command_line flood "chrt -r 50 flood query --socket /run/bench-flood-MODE.sock --request brief --count $FLOOD_INPROC --interval-ms 100  # under the flood ($FLOOD_BASE_QUERIES without)"
	flood_stop plain
	flood_stop rr-1
}

: >"$RAW"
emit "{\"part\": \"env\", \"kernel\": \"$(uname -r)\", \"quick\": $QUICK, \"cpus\": $(nproc), \"iperf3\": \"$(iperf3 --version | head -n 1)\", \"teamd\": \"$(teamd --version 2>/dev/null | head -n 1)\"}"
for p in dataplane recovery priority cold status linkcheck flood scale; do
	if [[ $PARTS == *$p* ]]; then
		now_us; t0=$REPLY
		"part_$p"
		now_us; emit "{\"part\": \"took\", \"of\": \"$p\", \"seconds\": $(((REPLY - t0) / 1000000))}"
	fi
done
log "done"
exit 0
