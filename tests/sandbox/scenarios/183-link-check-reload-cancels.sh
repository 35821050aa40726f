# SPDX-License-Identifier: MIT
# A reload while a client waits for a check (bondd-status --link-check):
#   one that changes the bond's MTU ends the check (its rows no longer fit)
#   -> the client gets the next check's result, not "no check yet";
#   a slave deleted and created again mid-check -> the next check probes
#   the new one (its new ifindex in the matrix);
#   one that turns the link check off -> the client is answered at once:
#   the check it waited for will not end by itself.
# One host alone on the switch (a check without peers waits its whole
# second), so each reload comes mid-check.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
NS_A=$(peer_ns a)
lc_host "$SW" "$NS_A" a
lc_conf "$WORK/a.conf"
: >"$WORK/a.log"
ip netns exec "$NS_A" "$BONDD" --config "$WORK/a.conf" --socket "$WORK/a.sock" \
	--debug >>"$WORK/a.log" 2>&1 &
PID=$!
cleanup_a() {
	kill -TERM "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
	bondd_cleanup
}
trap cleanup_a EXIT
wait_until 10 file_has "$WORK/a.log" "link check done" || fail "no link check at start"
nap 0.6 # past the least gap between two checks

# mid_check_reload SED: a client asks for a check; mid-check, a.conf is
# edited with SED and bondd reloaded; sets RC and MS (reload to answer).
mid_check_reload() {
	local before client t0 t1
	before=$(log_count_in "link check started (asked)")
	"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >"$WORK/client.out" 2>&1 &
	client=$!
	wait_until 5 log_has_more "link check started (asked)" "$before" ||
		fail "the asked check did not start"
	sed -i "$1" "$WORK/a.conf"
	t0=${EPOCHREALTIME//[!0-9]/}
	kill -HUP "$PID"
	RC=0
	wait "$client" || RC=$?
	t1=${EPOCHREALTIME//[!0-9]/}
	MS=$(((t1 - t0) / 1000))
	echo "measured: $1: the waiting client answered $MS ms after the reload (exit $RC)"
	cat "$WORK/client.out"
}
log_count_in() {
	local BONDD_LOG=$WORK/a.log
	log_count "$1"
}
log_has_more() { [ "$(log_count_in "$1")" -gt "$2" ]; }

mid_check_reload 's/mtu = 9000/mtu = 8000/'
[ "$RC" -eq 0 ] || { tail -n 20 "$WORK/a.log"; fail "the waiting client got exit $RC"; }
((MS < 3000)) || fail "the waiting client was answered only after $MS ms"
grep -q "link check #" "$WORK/client.out" || fail "the answer shows no completed check"
nap 0.6

# e2 re-created while a check runs
before=$(log_count_in "link check started (asked)")
"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >/dev/null 2>&1 &
client=$!
wait_until 5 log_has_more "link check started (asked)" "$before" || fail "the asked check did not start"
lc_recreate "$SW" "$NS_A" a 2
ip -n "$SW" link set a2 up
new_index=$(ip netns exec "$NS_A" cat /sys/class/net/e2/ifindex)
wait "$client" || true
e2_probed_new() {
	JSON=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
	[[ $JSON == *"\"slave\":\"e2\",\"position\":2,\"ifindex\":$new_index,\"probed\":true"* ]]
}
wait_until 5 e2_probed_new || { tail -n 20 "$WORK/a.log"; fail "e2 (ifindex $new_index) not probed after its re-creation mid-check"; }
echo "e2 re-created mid-check: probed again as ifindex $new_index"
nap 0.6

mid_check_reload 's/link_check = yes/link_check = no/'
rc=$RC
[ "$rc" -eq 0 ] || { tail -n 20 "$WORK/a.log"; fail "the waiting client got exit $rc"; }
((MS < 3000)) || fail "the waiting client was answered only after $MS ms"
grep -q "link check off" "$WORK/client.out" || fail "the answer does not say the check is off"
