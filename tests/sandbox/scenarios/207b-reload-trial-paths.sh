# SPDX-License-Identifier: MIT
# A reload on trial with the link check on (bondd(8), RELOAD ON TRIAL):
# two hosts a and b, four slaves each, port N of each in VLAN 20+N of a
# switch whose port a1 takes no jumbo frames.  Host a runs at MTU 1500 (its
# four paths proven at the sizes it sends); b at 9000.
# - a trial that drops slave e4 keeps the paths of e1..e3: a check after it
#   finds them, the trial runs on and is confirmed (a slave removed takes
#   its paths with it, as asked);
# - a trial that raises a's MTU to 9000 loses e1's path to b1 (the switch
#   drops its jumbo probes) while every bond stays up with its slaves: put
#   back at once, not at its 60 s deadline, and a is at MTU 1500 again.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
for h in a b; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
ip -n "$SW" link set a1 mtu 1500
conf() { # conf FILE MTU SLAVES
	printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = %s\nslaves = %s\nlink_check = yes\n' \
		"$2" "$3" >"$1"
}
conf "$WORK/a.conf" 1500 "e1 e2 e3 e4"
conf "$WORK/b.conf" 9000 "e1 e2 e3 e4"
trap lc_stop EXIT
lc_start "$WORK/a.conf" a
lc_start "$WORK/b.conf" b
BONDD_LOG=$WORK/a.log
a() { "$BONDD_STATUS" --socket "$WORK/a.sock" "$@"; }
wait_log ", 4 answered paths" 1 20 || { lc_show_logs a b; fail "host a never proved its four paths"; }

# 1. e4 dropped: not a lost path.
conf "$WORK/a.conf" 1500 "e1 e2 e3"
checks=$(log_count "link check done")
a --reload --try 60 >/dev/null || fail "trial 1 was not applied"
wait_log "link check done" $((checks + 1)) 20 || { lc_show_logs a; fail "no check during trial 1"; }
nap 3.5 # past the grace, and the check's result judged
log_has "trial 1 rolled back" 1 && { lc_show_logs a; fail "trial 1 was put back for e4's paths"; }
out=$(a --confirm) || fail "trial 1 could not be confirmed: $out"

# 2. MTU 9000 through a switch port at 1500: e1's path lost; put back.
conf "$WORK/a.conf" 9000 "e1 e2 e3 e4"
a --reload --try 60 --wait >"$WORK/try2.out" 2>&1 &
TRY=$!
start=${EPOCHREALTIME//[!0-9]/}
wait_until 30 sh -c '! kill -0 "$0" 2>/dev/null' "$TRY" ||
	{ lc_show_logs a; fail "trial 2 was not put back within 30 s of a 60 s trial"; }
rc=0
wait "$TRY" || rc=$?
echo "# measured: trial losing a proven path put back after $(((${EPOCHREALTIME//[!0-9]/} - start) / 1000)) ms"
assert_eq 4 "$rc" "the waiting client's exit status (put back)"
[[ $(<"$WORK/try2.out") == *"trial 2 rolled back: the link check proves "?" path"*" of bond0, "?" before the trial"* ]] ||
	{ lc_show_logs a; fail "trial 2's client said: $(<"$WORK/try2.out")"; }
wait_until 5 sh -c '[ "$(ip netns exec "$0" cat /sys/class/net/bond0/mtu)" = 1500 ]' "${NS[a]}" ||
	fail "a's bond0 MTU after trial 2 was put back"
