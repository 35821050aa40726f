# SPDX-License-Identifier: MIT
# The link check against a hostile station on the switch (tests/sandbox/
# lc-rogue.py on a third "host" x without bondd, its port N in VLAN 20+N
# like everyone's), hosts a and b running bondd with per-port VLANs:
#   malformed frames (short, a length beyond the frame, names unterminated,
#   with control characters, not UTF-8) -> each counted as bad, nothing shown
#   a's own request of an earlier check, replayed into a2's VLAN during a
#   check -> no shared-domain finding (it is not this check's request),
#   one warning that another host may carry our id;
#   answers of 128 bytes to every size class (a forger that reads our
#   probe ids) -> they prove the small size only
#   300 fake hosts flooding 2000 requests a second (half asking to be
#   probed back) into VLAN 21 -> e1's flood guard filters the strangers
#   out (said once); a check asked once both hosts' guards are on (the
#   guard starts every slave's read budget anew: the peers' requests of the
#   flood's second are answered) still records b's answers on e1 (its row
#   stays bounded, and the answer budget cannot be taken from peers that
#   answer by peers that never answer), bondd-status answers within 3 s,
#   answers stay within 256 a second per slave (and 256 to proven peers),
#   requests within the per-bond bucket, and the JSON stays valid; the
#   guard comes off after the flood
#   the same fake hosts below the read budget -> read, they fill the 256
#   places of a row (LC_MAX_PEERS), which keeps b's e1, names escaped.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
PIDS=()
for h in a b x; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
ip -n "${NS[x]}" -batch - <<<"link set e1 up
link set e2 up"
lc_conf "$WORK/host.conf"
ROGUE=(ip netns exec "${NS[x]}" python3 "$LIB_DIR/lc-rogue.py")

cleanup_hosts() {
	local p
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	bondd_cleanup
}
trap cleanup_hosts EXIT
show_logs() {
	local h
	for h in a b; do
		echo "--- bondd log of host $h ---"
		tail -n 40 "$WORK/$h.log"
	done
}
for h in a b; do
	: >"$WORK/$h.log"
	ip netns exec "${NS[$h]}" "$BONDD" --config "$WORK/host.conf" --socket "$WORK/$h.sock" \
		--debug >>"$WORK/$h.log" 2>&1 &
	PIDS+=($!)
done
for h in a b; do
	wait_until 10 file_has "$WORK/$h.log" "link check done" ||
		{ show_logs; fail "host $h made no link check at start"; }
done
st() { "$BONDD_STATUS" --socket "$WORK/$1.sock" "${@:2}"; }
json() { st "$1" --json >"$WORK/$1-$2.json" || true; }
log_count_in() {
	local BONDD_LOG=$1
	log_count "$2"
}
log_count_in_a() {
	local BONDD_LOG=$WORK/a.log
	log_count "link check done"
}

# --- malformed frames ---------------------------------------------------------
json a bad0
n=$("${ROGUE[@]}" bad e1)
bad0=$(lc_json_num "$(<"$WORK/a-bad0.json")" bad_frames)
# bondd reads the frames when the loaded guest gives it the CPU: wait for
# the count to reach n (it must never pass it).
bad_counted() {
	json a bad1
	bad1=$(lc_json_num "$(<"$WORK/a-bad1.json")" bad_frames)
	[ $((bad1 - bad0)) -ge "$n" ]
}
wait_until 5 bad_counted || true
[ $((bad1 - bad0)) -eq "$n" ] || { show_logs; fail "a counted $((bad1 - bad0)) of $n malformed frames as bad"; }
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f-\xff]' "$WORK/a.log" && fail "raw control or non-ASCII bytes in a's log"
echo "malformed: $n frames, all counted bad, none shown"

# --- a's own request replayed into another VLAN ---------------------------------
b_json=$(st b --json) || true
re='"peers":\[\{"host":"([0-9a-f]{32})","bond":"bond0","slave":"e1"'
[[ $b_json =~ $re ]] || fail "b's matrix shows no host a on e1"
a_host=${BASH_REMATCH[1]}
"${ROGUE[@]}" capture e1 "$a_host" "$WORK/a-e1.frame" e1 &
cap=$!
wait_until 5 test -e "$WORK/a-e1.frame.ready" || fail "the capture did not start"
st a --link-check >/dev/null || true
wait "$cap" || fail "no request of a's e1 captured"
nap 0.6
"${ROGUE[@]}" replay e2 "$WORK/a-e1.frame" 2.5 &
rep=$!
wait_until 5 test -e "$WORK/a-e1.frame.sending" || fail "the replay did not start"
rc=0
st a --link-check >"$WORK/a-replay.table" 2>&1 || rc=$?
wait "$rep"
[ "$rc" -eq 0 ] || { cat "$WORK/a-replay.table"; show_logs; fail "a replayed old request made a finding (exit $rc)"; }
[ "$(log_count_in "$WORK/a.log" "carries this host's id")" -eq 1 ] ||
	fail "a did not say once that a probe with its id came from elsewhere"
echo "replay: a's old request in VLAN 22 during a check: no finding, one warning"

# --- answers shorter than the requests they claim to answer ---------------------
nap 0.6
"${ROGUE[@]}" answer e1 "$a_host" 2 "$WORK/answer.ready" &
ans=$!
wait_until 5 test -e "$WORK/answer.ready" || fail "the forger did not start"
# The forger is a python process in a loaded guest: its answers may miss a
# short check.  Up to three checks while it answers (2 s); a forged answer
# that arrives must count for the small size only, and one must arrive.
seen=0
for try in 1 2 3; do
	st a --link-check >"$WORK/a-forged.table" 2>&1 || true
	json a forged
	rc=0
	python3 - "$WORK/a-forged.json" <<'PY' || rc=$?
import json, sys
d = json.load(open(sys.argv[1]))
e1 = d["bonds"][0]["link_check"]["slaves"][0]
fake = [p for p in e1["peers"] if p["host"] == "cc" * 16]
if not fake:
    sys.exit(2)
assert fake[0]["answered"] == ["small"], fake
PY
	((rc == 2)) || { ((rc == 0)) || { cat "$WORK/a-forged.table"; fail "a took a 128-byte answer for a larger probe's"; }; seen=1; break; }
	nap 0.6
done
wait "$ans"
((seen)) || { cat "$WORK/a-forged.table"; fail "no forged answer reached a in three checks"; }
echo "forged: 128-byte answers claiming the larger sizes count for the small size only"

# --- a flood of fake peers ---------------------------------------------------------
nap 0.6
json a flood0
json b flood0
checks0=$(log_count_in_a)
t_flood=${EPOCHREALTIME//[!0-9]/}
# 2000 requests a second: eight times what a slave answers to strangers.
# (A flood that fills the sockets' receive queues drops real peers' frames
# in the kernel already; no budget in bondd can help there.)
"${ROGUE[@]}" flood e1 3 300 "$WORK/flood.ready" 2000 >"$WORK/flood.sent" &
fl=$!
wait_until 5 test -e "$WORK/flood.ready" || fail "the flood did not start"
# The check is asked once both hosts' guards on e1 are on (2000 a second
# spend e1's read budget within the flood's first second; each says so
# once).  A request of a's that b's queue still holds when b's guard opens
# its socket again with the filter goes with the flood's frames queued
# there (bondd(8), What a flood of frames costs), and a check asked just
# before b's guard went on could lose b's answers by design; the guarantee
# is for the check under the flood that the filter holds back.
for h in a b; do
	wait_until 5 file_has "$WORK/$h.log" "more probe frames on e1 than it reads a second" ||
		{ show_logs; fail "host $h's flood guard on e1 did not go on"; }
done
t0=${EPOCHREALTIME//[!0-9]/}
st a --link-check >"$WORK/a-flood.table" 2>&1 || true
t1=${EPOCHREALTIME//[!0-9]/}
json a during
wait "$fl"
t_end=${EPOCHREALTIME//[!0-9]/}
json a flood1
json b flood1
checks1=$(log_count_in_a)
secs=$(((t_end - t_flood + 999999) / 1000000))
echo "flood: $(<"$WORK/flood.sent") requests from 300 fake hosts in 3 s;" \
	"bondd-status --link-check answered in $(((t1 - t0) / 1000)) ms;" \
	"$((checks1 - checks0)) checks on a during it"
(((t1 - t0) / 1000 < 3000)) || { cat "$WORK/a-flood.table"; show_logs; fail "bondd-status --link-check took $(((t1 - t0) / 1000)) ms under the flood"; }
for h in a b; do
	s0=$(lc_json_num "$(<"$WORK/$h-flood0.json")" answers_sent)
	s1=$(lc_json_num "$(<"$WORK/$h-flood1.json")" answers_sent)
	r0=$(lc_json_num "$(<"$WORK/$h-flood0.json")" requests_total)
	r1=$(lc_json_num "$(<"$WORK/$h-flood1.json")" requests_total)
	echo "measured: host $h: $((s1 - s0)) answers, $((r1 - r0)) requests sent in ${secs} s of flood"
	# 256 a second to anyone, 256 more to peers that answered us
	(((s1 - s0) <= 2 * 256 * (secs + 1))) || fail "host $h sent $((s1 - s0)) answers in $secs s"
	# one check of its own plus the peers' bucket (4), 4 slaves x 3 sizes,
	# and one resend of e1's 3 per check
	(((r1 - r0) <= 6 * 15)) || fail "host $h sent $((r1 - r0)) requests during the flood"
done
python3 - "$WORK/a-during.json" "$a_host" <<'PY' || { cat "$WORK/a-flood.table"; show_logs; fail "a's check under the flood lost b's answers"; }
import json, sys
d = json.load(open(sys.argv[1]))
e1 = d["bonds"][0]["link_check"]["slaves"][0]
real = [p for p in e1["peers"] if p["slave"] == "e1" and p["answered"] == ["small", "standard", "full"]]
assert real, f"e1 peers: {len(e1['peers'])}, none is b's e1 with every size answered: " + \
    str([p for p in e1["peers"] if p["bond"] == "bond0"]) + " " + d["bonds"][0]["link_check"]["trigger"] + \
    " #" + str(d["bonds"][0]["link_check"]["checks"])
# a row is bounded (LC_MAX_PEERS) whatever reached it
assert len(e1["peers"]) <= 256, len(e1["peers"])
PY
st a --prometheus >"$WORK/a.prom" || true
grep -q '^bondd_link_check_peer_slaves{master="bond0",device="e1",size="full"} [1-9]' "$WORK/a.prom" ||
	{ cat "$WORK/a.prom"; st a --link-check; show_logs; fail "a's metrics lost b's e1"; }
# 2000 a second is over e1's read budget (512 and 16 per answering peer
# slave, linkcheck_guard.h): its flood guard filtered the strangers out.
[ "$(log_count_in "$WORK/a.log" "more probe frames on e1 than it reads a second")" -eq 1 ] ||
	{ show_logs; fail "a did not say once that e1's flood guard went on"; }

# --- fake peers under the read budget -------------------------------------------
# The same 300 fake hosts, 250 frames a second (below e1's read budget:
# the guard stays open and reads them all): they fill the row, which stays
# bounded and keeps b's e1, and their names are escaped in every output.
wait_until 10 file_has "$WORK/a.log" "flood of probe frames on e1 is over" ||
	{ show_logs; fail "a's flood guard on e1 did not come off after the flood"; }
nap 0.6
"${ROGUE[@]}" flood e1 2.5 300 "$WORK/slow.ready" 250 >"$WORK/slow.sent" &
fl=$!
wait_until 5 test -e "$WORK/slow.ready" || fail "the slow flood did not start"
# A check asked keeps the requests heard at most 500 ms before it began
# (LC_HEARD_SLACK_MS) and those heard while it runs (about 450 ms here):
# some 230 hosts at 250 a second, spread evenly (lc-rogue.py), fewer when
# the loaded guest slows the sender.  So checks while the flood lasts,
# until one's row is full; every one's must be bounded and keep b's e1.
filled=0 tries=0
while ((!filled && tries < 3)); do
	tries=$((tries + 1))
	st a --link-check >"$WORK/a-slow.table" 2>&1 || true
	json a slow
	rc=0
	python3 - "$WORK/a-slow.json" <<'PY' || rc=$?
import json, sys
d = json.load(open(sys.argv[1]))
e1 = d["bonds"][0]["link_check"]["slaves"][0]
# a row is bounded (LC_MAX_PEERS) whatever reached it, and keeps b's e1
assert len(e1["peers"]) <= 256, len(e1["peers"])
assert any(p["slave"] == "e1" and p["answered"] for p in e1["peers"]), "b's e1 lost its place"
# 300 fake hosts fill it, when a round fell within the check
if len(e1["peers"]) < 200:
    sys.exit(2)
assert any(p["slave"] == "e\\1" for p in e1["peers"]), "the fake peers are not shown at all"
PY
	case $rc in
	0) filled=1 ;;
	2) kill -0 "$fl" 2>/dev/null || break ;;
	*) cat "$WORK/a-slow.table"; show_logs; fail "a's row under fake peers within the budget is wrong" ;;
	esac
done
wait "$fl"
((filled)) || { cat "$WORK/a-slow.table"; show_logs; fail "the fake peers filled a's row in none of $tries checks while they sent"; }
echo "fake peers within the read budget: $(<"$WORK/slow.sent") requests; the row filled and bounded (check $tries)"
