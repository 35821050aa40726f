#!/bin/bash
# SPDX-License-Identifier: MIT
#
# flood.sh: what a flood of untrusted frames costs bondd, in the sandbox
# kernel (issue 31).  One host (namespace fl-h: bond0 of e1 and e2,
# balance-rr, link_check = yes, lldp = yes) and its peer (fl-p: p1, p2).
# From the peer, bench/flood-send sends on p1 for FLOOD_SECS (10) at the
# rate the guest can, one kind at a time:
#   lldp   a well-formed LLDPDU (TTL 65535, 1518-byte maximum frame)
#   probe  link check requests, each from another made-up host (a stranger)
#   spoof  the same, with e1's own Ethernet source address, which the link
#          check's flood guard admits (linkcheck_guard.h: the worst case,
#          bounded by the read budget alone)
# and, for bondd as a plain process and at SCHED_RR 1 (as the unit starts
# it), measures over the flood:
#   cpu_pct     bondd's utime + stime (/proc/PID/stat, its process and any
#               children) over the interval, in % of one CPU (the guest
#               has one, shared with the sender)
#   sent_ps     frames/s the sender got out
#   rx_ps       frames/s e1 received (its rx_packets)
#   read_ps     frames/s bondd read and judged (LLDP: frames + malformed +
#               rate_limited of e1; probe: answers_sent + dropped +
#               bad_frames of the link check)
#   kernel_dropped_ps  LLDP: frames/s the kernel dropped while bondd's read
#               budget was spent (e1's "dropped"; -1 for probes: no counter;
#               rx_ps - read_ps is what bondd did not read either way)
#   taken_ps    frames/s that changed anything (LLDP: frames taken; probe:
#               answers sent)
#   sent_by_bondd_ps  frames/s bondd sent in reply (probe: answers)
# and the same CPU over FLOOD_SECS idle before.  Prints one line per
# measurement and writes one JSON line each to RAW.
# Boot it with tests/sandbox/uml-boot BUILD_DIR OUT bench/flood.sh RAW=FILE
# [FLOOD_SECS=10]; bench/FLOOD.md has the figures.
. "$(dirname "$0")/../tests/sandbox/lib.sh"
trap - ERR
set +e
BONDD=$BUILD_DIR/src/bondd
STATUS=$BUILD_DIR/src/bondd-status
SENDER=$BUILD_DIR/bench/flood-send
: "${RAW:?}" "${FLOOD_SECS:=10}"
OUT=$(mktemp -d /var/tmp/flood.XXXXXX)
TCK=$(getconf CLK_TCK)

tree() { # tree PID: PID and its descendants
	local p c
	echo "$1"
	for p in /proc/"$1"/task/*/children; do
		for c in $(<"$p"); do tree "$c"; done
	done 2>/dev/null
}
cpu_ticks() { # cpu_ticks PID: utime + stime of PID and its descendants
	local p f n=0
	for p in $(tree "$1"); do
		read -r -a f </proc/"$p"/stat 2>/dev/null || continue
		# fields after "(comm)": comm has no spaces here (bondd)
		n=$((n + f[13] + f[14]))
	done
	echo "$n"
}
rx() { ip netns exec fl-h cat /sys/class/net/e1/statistics/rx_packets; }
counters() { # counters: "lldp_read lldp_taken lldp_dropped lc_read lc_answers"
	ip netns exec fl-h "$STATUS" --socket "$OUT/s.sock" --json >"$OUT/s.json" 2>/dev/null
	python3 - "$OUT/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["bonds"][0]
e1 = [s for s in b["slave_status"] if s["name"] == "e1"][0]["lldp"] or {}
lc = b.get("link_check") or {}
print(e1.get("frames", 0) + e1.get("malformed", 0) + e1.get("rate_limited", 0), e1.get("frames", 0),
      e1.get("dropped", 0),
      lc.get("answers_sent", 0) + lc.get("dropped", 0) + lc.get("bad_frames", 0), lc.get("answers_sent", 0))
PY
}

ip netns add fl-h
ip netns add fl-p
ip -n fl-h -batch - <<<"link add e1 type veth peer name p1 netns fl-p
link add e2 type veth peer name p2 netns fl-p"
ip -n fl-p -batch - <<<"link set p1 up
link set p2 up"
printf '[bond0]\nmode = balance-rr\nmtu = 1500\nslaves = e1 e2\nlink_check = yes\nlldp = yes\n' >"$OUT/c.conf"

for prio in plain rr; do
	chrt=()
	[[ $prio == rr ]] && chrt=(chrt -r 1)
	ip netns exec fl-h "${chrt[@]}" "$BONDD" --config "$OUT/c.conf" --socket "$OUT/s.sock" \
		>"$OUT/bondd-$prio.log" 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do [[ -S $OUT/s.sock ]] && break; sleep 0.1; done
	sleep 3 # the bond up, the first link check done
	t0=$(cpu_ticks "$pid")
	sleep "$FLOOD_SECS"
	t1=$(cpu_ticks "$pid")
	idle=$(((t1 - t0) * 1000 / TCK / FLOOD_SECS))
	echo "flood: bondd ($prio) idle: cpu $((idle / 10)).$((idle % 10)) %"
	echo "{\"part\": \"flood\", \"kind\": \"idle\", \"prio\": \"$prio\", \"secs\": $FLOOD_SECS, \"cpu_pct\": $((idle / 10)).$((idle % 10))}" >>"$RAW"
	for kind in lldp probe spoof; do
		read -r l0 lt0 ld0 c0 ca0 <<<"$(counters)"
		r0=$(rx)
		t0=$(cpu_ticks "$pid")
		if [[ $kind == spoof ]]; then
			sent=$(ip netns exec fl-p "$SENDER" p1 probe "$FLOOD_SECS" \
				"$(ip netns exec fl-h cat /sys/class/net/e1/address)")
		else
			sent=$(ip netns exec fl-p "$SENDER" p1 "$kind" "$FLOOD_SECS")
		fi
		t1=$(cpu_ticks "$pid")
		r1=$(rx)
		sleep 1 # what is queued read
		read -r l1 lt1 ld1 c1 ca1 <<<"$(counters)"
		cpu=$(((t1 - t0) * 1000 / TCK / FLOOD_SECS)) # tenths of a %
		if [[ $kind == lldp ]]; then read_n=$((l1 - l0)) taken=$((lt1 - lt0)) replies=0 kdrop=$((ld1 - ld0))
		else read_n=$((c1 - c0)) taken=$((ca1 - ca0)) replies=$((ca1 - ca0)) kdrop=-1; fi
		line="kind $kind prio $prio: cpu $((cpu / 10)).$((cpu % 10)) %, sent $((sent / FLOOD_SECS))/s, rx $(((r1 - r0) / FLOOD_SECS))/s, read $((read_n / FLOOD_SECS))/s, taken $((taken / FLOOD_SECS))/s, replies $((replies / FLOOD_SECS))/s, counted dropped $((kdrop / FLOOD_SECS))/s"
		echo "flood: $line"
		echo "{\"part\": \"flood\", \"kind\": \"$kind\", \"prio\": \"$prio\", \"secs\": $FLOOD_SECS, \"cpu_pct\": $((cpu / 10)).$((cpu % 10)), \"sent_ps\": $((sent / FLOOD_SECS)), \"rx_ps\": $(((r1 - r0) / FLOOD_SECS)), \"read_ps\": $((read_n / FLOOD_SECS)), \"taken_ps\": $((taken / FLOOD_SECS)), \"sent_by_bondd_ps\": $((replies / FLOOD_SECS)), \"kernel_dropped_ps\": $((kdrop / FLOOD_SECS))}" >>"$RAW"
	done
	kill "$pid"
	wait "$pid"
	rm -f "$OUT/s.sock"
done
echo "flood: kernel $(uname -r)"
ip netns del fl-h
ip netns del fl-p
rm -rf "$OUT"
