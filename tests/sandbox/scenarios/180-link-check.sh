# SPDX-License-Identifier: MIT
# The link check (link_check = yes): three hosts (namespaces a, b, c), each
# running its own bondd with a balance-rr bond of four slaves e1..e4, joined
# by a "switch" namespace whose VLAN-aware bridge gives each host's port N
# the switch port hN.  The scenario reconfigures the switch between cases
# and asks every bondd for a fresh check (bondd-status --link-check), then
# reads each one's --json:
#   one VLAN for every port        -> shared-domain on every host
#   a VLAN per port number         -> no finding, health 0, port i <-> port i
#   switch port b1 at MTU 1500     -> jumbo-dropped on b, naming e1 only
#   b2 and b3's VLANs swapped      -> crossed on every host (e2, e3)
#   a4 alone in a VLAN             -> unreachable e4 on a
#   frames to a3 dropped (netem)   -> unreachable e3 on a, one-way e3 on b, c
#   a's e2 re-created              -> checked again by itself, matrix whole
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

# log_count_in LOG PATTERN: lines of LOG containing PATTERN.
log_count_in() {
	local BONDD_LOG=$1
	log_count "$2"
}

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
PIDS=()
for h in a b c; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
lc_conf "$WORK/host.conf"

cleanup_hosts() {
	local p
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	bondd_cleanup
}
trap cleanup_hosts EXIT
show_logs() {
	local h
	for h in a b c; do
		echo "--- bondd log of host $h ---"
		tail -n 60 "$WORK/$h.log"
	done
}
for h in a b c; do
	: >"$WORK/$h.log"
	ip netns exec "${NS[$h]}" "$BONDD" --config "$WORK/host.conf" --socket "$WORK/$h.sock" \
		--debug >>"$WORK/$h.log" 2>&1 &
	PIDS+=($!)
done
for h in a b c; do
	wait_until 10 file_has "$WORK/$h.log" "link check done" ||
		{ show_logs; fail "host $h made no link check at start"; }
done

vlan() { lc_vlan "$SW" "$@"; }

# check_all CASE: a fresh check on every host at once, then each host's
# JSON, judged by check.py for CASE.
check_all() {
	local h pids=() t0 t1 dir=$WORK/cases/$((++CASES))-$1
	mkdir -p "$dir"
	t0=${EPOCHREALTIME//[!0-9]/}
	for h in a b c; do
		{ rc=0
		  "$BONDD_STATUS" --socket "$WORK/$h.sock" --link-check >"$dir/$h.table" 2>&1 || rc=$?
		  echo $rc >"$dir/$h.rc"; } &
		pids+=($!)
	done
	wait "${pids[@]}"
	t1=${EPOCHREALTIME//[!0-9]/}
	pids=()
	for h in a b c; do
		{ "$BONDD_STATUS" --socket "$WORK/$h.sock" --json >"$dir/$h.json" || true; } &
		pids+=($!)
	done
	wait "${pids[@]}"
	echo "measured: $1: three link checks answered in $(((t1 - t0) / 1000)) ms"
}
CASES=0

cat >"$WORK/check.py" <<'PY'
# Judges every case at the end (one python start, not one per case): the
# arguments are the cases' directories, N-CASE.
import json, os, sys
hosts = {}

def kinds(b):
    return sorted((f["kind"], tuple(f["slaves"])) for f in b["findings"]
                  if f["source"] == "link_check")

def expect(h, want, rc):
    b, got_rc = hosts[h]
    got = kinds(b)
    assert got == sorted(want), f"host {h}: findings {got}, expected {sorted(want)}: " + \
        "; ".join(f["evidence"] for f in b["findings"])
    assert got_rc == rc, f"host {h}: bondd-status --link-check exit {got_rc}, expected {rc}"

def whole(h):
    """Port i reaches port i of both other hosts at every size, nothing else."""
    lc = hosts[h][0]["link_check"]
    assert lc["enabled"] and lc["checks"] >= 1, lc
    for i, s in enumerate(lc["slaves"], 1):
        assert s["probed"] and s["siblings_heard"] == [], s
        answered = sorted((p["slave"], p["position"], tuple(p["answered"]))
                          for p in s["peers"] if p["answered"])
        want = [(f"e{i}", i, ("small", "standard", "full"))] * 2
        assert answered == want, f"host {h} e{i}: {answered}"
        assert len({p["host"] for p in s["peers"]}) == 2, s["peers"]

def judge(case):
    if case == "shared":
        for h in "abc":
            expect(h, [("shared-domain", ("e1", "e2", "e3", "e4"))], 1)
    elif case in ("per-port", "recreated"):
        for h in "abc":
            expect(h, [], 0)
            whole(h)
    elif case == "jumbo":
        expect("a", [], 0)
        expect("b", [("jumbo-dropped", ("e1",))], 1)
        expect("c", [], 0)
        f = hosts["b"][0]["findings"][0]
        assert "1500 bytes" in f["evidence"], f["evidence"]
    elif case == "crossed":
        for h in "abc":
            expect(h, [("crossed", ("e2", "e3"))], 1)
    elif case == "alone":
        expect("a", [("unreachable", ("e4",))], 1)
        expect("b", [], 0)
        expect("c", [], 0)
    elif case == "one-way":
        expect("a", [("unreachable", ("e3",))], 1)
        expect("b", [("one-way", ("e3",))], 1)
        expect("c", [("one-way", ("e3",))], 1)
    else:
        sys.exit(f"unknown case {case}")

failed = 0
for work in sys.argv[1:]:
    case = os.path.basename(work).split("-", 1)[1]
    for h in "abc":
        doc = json.load(open(f"{work}/{h}.json"))
        rc = int(open(f"{work}/{h}.rc").read())
        hosts[h] = (doc["bonds"][0], rc)
    try:
        judge(case)
        print(f"{case}: ok")
    except AssertionError as e:
        failed += 1
        print(f"FAIL: case {case}: {e}")
        for h in "abc":
            print(f"--- host {h} (exit {hosts[h][1]}) ---")
            print(open(f"{work}/{h}.table").read(), end="")
sys.exit(1 if failed else 0)
PY

# Each case waits well past the time a peer's earlier requests still count
# in a check (LC_HEARD_SLACK_MS, 500 ms), so that no case sees the one
# before: a loaded CI guest delivers a frame sent under the old VLANs late.
settle() { nap 1.5; }

check_all per-port
echo "matrix of host a:"
cat "$WORK/cases/1-per-port/a.table"

vlan a1 10 a2 10 a3 10 a4 10 b1 10 b2 10 b3 10 b4 10 c1 10 c2 10 c3 10 c4 10
settle
check_all shared
vlan a1 21 a2 22 a3 23 a4 24 b1 21 b2 22 b3 23 b4 24 c1 21 c2 22 c3 23 c4 24

ip -n "$SW" link set b1 mtu 1500
settle
check_all jumbo
echo "host b:"
cat "$WORK/cases/3-jumbo/b.table"
ip -n "$SW" link set b1 mtu 9000

vlan b2 23 b3 22
settle
check_all crossed
vlan b2 22 b3 23

vlan a4 99
settle
check_all alone
vlan a4 24

tc -n "$SW" qdisc add dev a3 root netem loss 100%
settle
long_checks() { grep -cE 'link check done in 1[5-9][0-9]{3} ms' "$WORK/b.log" || true; }
long_before=$(long_checks)
check_all one-way
tc -n "$SW" qdisc del dev a3 root
# The check that confirmed one-way gave the silent peer the longest wait
# (lc_wait_ms: 15 s; late is not one-way): b's checks wait about a second
# otherwise, and the JSON shows only the last check's wait.
[ "$(long_checks)" -gt "$long_before" ] ||
	fail "b confirmed one-way without waiting 15 s for the peer"

settle
check_all per-port

# A NIC reset on host a: e2 deleted and created again.  Its switch port is
# set up before it comes up, as a switch's would be; bondd enslaves the new
# e2 and checks again by itself.
before=$(log_count_in "$WORK/a.log" "link check done")
lc_recreate "$SW" "${NS[a]}" a 2
new_index=$(ip netns exec "${NS[a]}" cat /sys/class/net/e2/ifindex)
t0=${EPOCHREALTIME//[!0-9]/}
ip -n "$SW" link set a2 up
matrix_whole() {
	JSON=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
	lc_json_whole "$JSON" "$new_index"
}
wait_until 10 matrix_whole || { show_logs; fail "host a's matrix did not become whole after e2 returned"; }
t1=${EPOCHREALTIME//[!0-9]/}
[ "$(log_count_in "$WORK/a.log" "link check done")" -gt "$before" ] || fail "no new check"
echo "measured: e2 back up -> whole matrix seen from outside within $(((t1 - t0) / 1000)) ms;" \
	"bondd: $(lc_json_num "$JSON" since_trigger_ms) ms from e2 ready to the end of its check," \
	"$(lc_json_num "$JSON" requests_sent) requests sent"
(((t1 - t0) / 1000 < 3000)) || fail "the matrix took $(((t1 - t0) / 1000)) ms to be whole again"
settle
check_all recreated

dirs=("$WORK"/cases/*) # at most 9 cases: the glob keeps their order
python3 "$WORK/check.py" "${dirs[@]}" || { show_logs; fail "link check cases failed"; }
