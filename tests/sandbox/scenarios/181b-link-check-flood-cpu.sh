# SPDX-License-Identifier: MIT
# scenario-timeout: 180
# A probe flood from a stranger while a real check runs, and what it costs
# bondd.  Hosts a and b run bondd (balance-rr of e1 in VLAN 10 and e2 in
# VLAN 20: a right topology); x, a third host on the switch without bondd,
# sends link check requests on its e1 (VLAN 10) for FLOOD_S seconds, as
# fast as the guest lets it (bench/flood-send: each from another made-up
# host, one made-up source address).  One second in, a is asked for a
# check.
#   -> the check's result is right: bondd-status --link-check exits 0
#      (healthy) within 3 s, and a's matrix shows b's e1 on e1 and b's e2
#      on e2, every size answered
#   -> e1's flood guard went on (said once) and came off after the flood
#   -> bondd's CPU (utime + stime, /proc/PID/stat) over the flood is at
#      most 20 % of the guest's one CPU (without the guard: about half)
#   -> no link check warning but the guard's and the strangers' budget's,
#      before or after (a flood makes no finding), and a check after the
#      flood is healthy
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

FLOOD_S=6
SENDER=$BUILD_DIR/bench/flood-send
[ -x "$SENDER" ] || skip "bench/flood-send is not built"
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS PID
lc_cluster "$SW" a b x
ip -n "${NS[x]}" -batch - <<<"link set e1 up
link set e2 up"
trap lc_stop EXIT
lc_start "$WORK/host.conf" a b
for h in a b; do
	wait_until 20 file_has "$WORK/$h.log" "link check done" ||
		{ lc_show_logs "$h"; fail "host $h made no link check"; }
done
wait_until 60 lc_settled a || { lc_show_logs a b; fail "a did not settle"; }
lc_all_healthy a b || fail "not every host healthy before the flood"

log_count_in_file() {
	local BONDD_LOG=$1
	log_count "$2"
}
ticks() { # utime + stime of a's bondd
	local f
	read -r -a f </proc/"${PID[a]}"/stat
	echo $((f[13] + f[14]))
}
# e1 and e2 of a's last matrix: the peer slave of b with every size
b_whole() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["bonds"][0]["link_check"]["slaves"]
for name in ("e1", "e2"):
    row = [r for r in rows if r["slave"] == name][0]
    ok = [p for p in row["peers"]
          if p["slave"] == name and p["answered"] == ["small", "standard", "full"]]
    assert ok, f"{name}: no peer slave {name} with every size answered: {row['peers'][:4]}"
PY
}

# b proven to a before the flood: the guard keeps only proven peers'
# answers.  Both hosts start together, and on a loaded machine a's first
# check can end before b is up and b's first one before a listens (seen
# with three guests on two CPUs); a bond whose check heard no peer checks
# again 5 s later, then 10 s ... (bondd(8), LINK CHECK; scenario 186b), and
# a is settled only once a check heard a peer, so its matrix has b by now,
# with no check asked for.
a_knows_b() {
	"$BONDD_STATUS" --socket "$WORK/a.sock" --json >"$WORK/before.json" 2>/dev/null &&
		b_whole "$WORK/before.json" 2>/dev/null
}
wait_until 15 a_knows_b || { lc_show_logs a b; fail "a did not have b's answers before the flood"; }

t0=$(ticks)
ip netns exec "${NS[x]}" "$SENDER" e1 probe "$FLOOD_S" >"$WORK/sent" &
fl=$!
nap 1
m0=${EPOCHREALTIME//[!0-9]/}
rc=0
"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >"$WORK/during.table" 2>&1 || rc=$?
m1=${EPOCHREALTIME//[!0-9]/}
"$BONDD_STATUS" --socket "$WORK/a.sock" --json >"$WORK/during.json" || true
wait "$fl"
t1=$(ticks)
tck=$(getconf CLK_TCK)
cpu=$(((t1 - t0) * 1000 / tck / FLOOD_S)) # tenths of a %
sent=$(<"$WORK/sent")
echo "measured: $((sent / FLOOD_S)) requests a second from a stranger for $FLOOD_S s;" \
	"bondd-status --link-check answered in $(((m1 - m0) / 1000)) ms (exit $rc);" \
	"a's bondd took $((cpu / 10)).$((cpu % 10)) % of the CPU"
((rc == 0)) || { cat "$WORK/during.table"; lc_show_logs a; fail "a's check under the flood was not healthy (exit $rc)"; }
(((m1 - m0) / 1000 < 3000)) || fail "bondd-status --link-check took $(((m1 - m0) / 1000)) ms under the flood"
b_whole "$WORK/during.json" || { cat "$WORK/during.table"; lc_show_logs a; fail "a's check under the flood lost b's answers"; }
((cpu <= 200)) || { lc_show_logs a; fail "bondd took $((cpu / 10)).$((cpu % 10)) % of the CPU under the flood"; }
[ "$(log_count_in_file "$WORK/a.log" "more probe frames on e1 than it reads a second")" -eq 1 ] ||
	{ lc_show_logs a; fail "a did not say once that e1's flood guard went on"; }
wait_until 10 file_has "$WORK/a.log" "flood of probe frames on e1 is over" ||
	{ lc_show_logs a; fail "e1's flood guard did not come off after the flood"; }

rc=0
"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >"$WORK/after.table" 2>&1 || rc=$?
((rc == 0)) || { cat "$WORK/after.table"; lc_show_logs a; fail "a's check after the flood was not healthy (exit $rc)"; }
"$BONDD_STATUS" --socket "$WORK/a.sock" --json >"$WORK/after.json" || true
b_whole "$WORK/after.json" || { cat "$WORK/after.table"; fail "a's check after the flood lost b's answers"; }
if grep 'warning: .*link check' "$WORK/a.log" "$WORK/b.log" |
	grep -v -e 'more probe frames on' -e 'over their budget and dropped'; then
	fail "a link check warning that the flood does not explain"
fi
echo "the check under the flood: healthy, b's e1 and e2 whole; the guard on, then off"
