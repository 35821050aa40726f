# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# Incast: every peer answers a check at once, and all the answers converge
# on the asking slave's switch port; a port with a shallow buffer drops
# them.  10 hosts (a..j) x 2 slaves through one switch with per-port VLANs
# (a right topology), every host running bondd; once all are healthy and
# settled, the switch's port towards a's e1 gets a shallow buffer (tbf:
# 50 Mbit/s, 16 kB of burst, 16 kB of queue: 9 peers' answers of 128, 1500
# and 9000 bytes, 95 kB, do not fit at once).  Then a is asked for three
# checks.
#   -> answers spread by the peers (linkcheck_spread.h) pass: a stays
#      healthy, no link check warning on any host, and a's checks see
#      every peer slave answer every size on e1 in most checks
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

HOSTS=(a b c d e f g h i j)
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
modprobe sch_tbf 2>/dev/null || true
declare -A NS
lc_cluster "$SW" "${HOSTS[@]}"
trap lc_stop EXIT
all_checked() {
	local h
	for h in "${HOSTS[@]}"; do file_has "$WORK/$h.log" "link check done" || return 1; done
}
lc_start "$WORK/host.conf" "${HOSTS[@]}"
wait_until 60 all_checked || fail "not every host made a link check"
wait_until 120 lc_all_settled "${HOSTS[@]}" || { lc_show_logs a; fail "the hosts did not settle"; }
lc_all_healthy "${HOSTS[@]}" || fail "not every host healthy before the test"
: >"$WORK/before.txt"
for h in "${HOSTS[@]}"; do grep -c 'warning: .*link check' "$WORK/$h.log" >>"$WORK/before.txt" || true; done

tc -n "$SW" qdisc add dev a1 root tbf rate 50mbit burst 16k limit 16k ||
	skip "no tbf qdisc in this kernel (sch_tbf.ko)"
# e1's answered paths in a's last check: the e1 row of --json's matrix
e1_whole() {
	local json=$1 row n
	row=${json#*\"slave\":\"e1\",\"position\":1,\"ifindex\":}
	row=${row%%\"slave\":\"e2\",\"position\":2,\"ifindex\":*}
	lc_json_answered "$row" n
	echo "$n"
}
whole=0 seen=""
for k in 1 2 3; do
	"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >/dev/null 2>&1 || true
	json=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
	n=$(e1_whole "$json")
	seen+=" $n"
	((n == 9)) && whole=$((whole + 1))
	nap 2
done
# the re-checks a finding would start, if any, and their confirmation
wait_until 120 lc_settled a || { lc_show_logs a; fail "a did not settle after its checks"; }
drops=$(tc -n "$SW" -s qdisc show dev a1 | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1)
echo "measured: 9 peers' answers through a port of 50 Mbit/s with 32 kB of buffer:" \
	"e1 answered by all 9 peer slaves in $whole of 3 checks (peer slaves answering every size:$seen);" \
	"${drops:-?} frames dropped by the port"
lc_health a || { lc_show_logs a; fail "a degraded by answers a shallow buffer dropped"; }
: >"$WORK/after.txt"
for h in "${HOSTS[@]}"; do grep -c 'warning: .*link check' "$WORK/$h.log" >>"$WORK/after.txt" || true; done
cmp -s "$WORK/before.txt" "$WORK/after.txt" ||
	{ grep -h 'warning: .*link check' "$WORK"/?.log | tail -n 5; fail "link check warnings after a's checks"; }
((whole >= 2)) || fail "e1's answers lost in the port's buffer: peer slaves answering every size:$seen"
