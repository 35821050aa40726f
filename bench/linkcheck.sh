#!/bin/bash
# SPDX-License-Identifier: MIT
#
# linkcheck.sh: the link check's figures, run by bench/guest.sh in the
# sandbox kernel.  Three hosts (namespaces) of four slaves each behind a
# VLAN-aware bridge, port N in VLAN 20+N (tests/sandbox/linkcheck-lib.sh),
# a bondd on each.  ROUNDS times, host a's e2 is deleted and created again;
# from the moment its switch port comes up, host a's status is polled until
# its matrix is whole again (4 slaves, 2 peers, every size, the new e2).
# Per round: that time from outside (polling bondd-status --json, so it
# includes up to one poll, about 100 ms in the guest), bondd's own time
# from e2 being ready to the end of its check, and the link-check frames
# all three hosts sent meanwhile (requests and answers, from their
# counters).  One JSON line per round to $RAW.
#
# Environment: BUILD_DIR, RAW, ROUNDS, OUT.
. "$(dirname "$0")/../tests/sandbox/lib.sh"
. "$(dirname "$0")/../tests/sandbox/linkcheck-lib.sh"
trap - ERR
set +e
BONDD=$BUILD_DIR/src/bondd
STATUS=$BUILD_DIR/src/bondd-status
: "${ROUNDS:=10}" "${RAW:?}" "${OUT:?}"

ns_del() { local ns p; for ns in "$@"; do for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p"; done; ip netns del "$ns" 2>/dev/null; done; }
ip netns add lcsw && ip netns add lca && ip netns add lcb && ip netns add lcc
lc_switch lcsw || { echo '{"part": "linkcheck", "error": "no VLAN-aware bridge"}' >>"$RAW"; ns_del lcsw lca lcb lcc; exit 0; }
for h in a b c; do lc_host lcsw "lc$h" "$h"; done
lc_conf "$OUT/lc.conf"
for h in a b c; do
	: >"$OUT/lc-$h.log"
	ip netns exec "lc$h" "$BONDD" --config "$OUT/lc.conf" --socket "/run/bench-lc-$h.sock" >>"$OUT/lc-$h.log" 2>&1 &
done
now_us() { REPLY=${EPOCHREALTIME//[!0-9]/}; }
json() { JSON=$("$STATUS" --socket "/run/bench-lc-$1.sock" --json 2>/dev/null); }
# frames: requests and answers all three bondd have sent so far.
frames() {
	local h n=0 v
	for h in a b c; do
		json "$h"
		v=$(lc_json_num "$JSON" requests_total); n=$((n + ${v:-0}))
		v=$(lc_json_num "$JSON" answers_sent); n=$((n + ${v:-0}))
	done
	FRAMES=$n
}
whole_a() { json a; lc_json_whole "$JSON" "$IDX"; }
IDX=$(ip netns exec lca cat /sys/class/net/e2/ifindex)
wait_until 30 whole_a || echo "bench: linkcheck: the matrix never became whole at start" >&2

for ((r = 1; r <= ROUNDS; r++)); do
	# Past the rate limit's burst (bondd.conf(5)): one event per slave
	# every 15 s is what it lets through at once.
	((r > 4)) && nap 15.2
	frames; f0=$FRAMES
	lc_recreate lcsw lca a 2
	IDX=$(ip netns exec lca cat /sys/class/net/e2/ifindex)
	now_us; t0=$REPLY
	ip -n lcsw link set a2 up
	if wait_until 10 whole_a; then
		now_us; t1=$REPLY
		inside=$(lc_json_num "$JSON" since_trigger_ms)
		requests=$(lc_json_num "$JSON" requests_sent)
		nap 1.5 # the peers' probe-back checks, for the frame count
		frames
		echo "{\"part\": \"linkcheck\", \"round\": $r, \"slaves\": 4, \"peers\": 2, \"outside_ms\": $(((t1 - t0) / 1000)), \"bondd_ms\": ${inside:-null}, \"requests\": ${requests:-null}, \"frames\": $((FRAMES - f0))}" >>"$RAW"
	else
		echo "{\"part\": \"linkcheck\", \"round\": $r, \"missing\": \"matrix not whole in 10 s\"}" >>"$RAW"
	fi
done
ns_del lca lcb lcc lcsw
exit 0
