# SPDX-License-Identifier: MIT
# A reload that turns the link check off while a client waits for a check
# (bondd-status --link-check) answers that client at once: the check it
# waited for will not end by itself.  One host alone on the switch (a check
# without peers waits its whole second), so the reload comes mid-check.
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

"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >"$WORK/client.out" 2>&1 &
client=$!
wait_until 5 file_has "$WORK/a.log" "link check started (asked)" || fail "the asked check did not start"
sed -i 's/link_check = yes/link_check = no/' "$WORK/a.conf"
t0=${EPOCHREALTIME//[!0-9]/}
kill -HUP "$PID"
rc=0
wait "$client" || rc=$?
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: the waiting client answered $(((t1 - t0) / 1000)) ms after the reload (exit $rc)"
cat "$WORK/client.out"
[ "$rc" -eq 0 ] || { tail -n 20 "$WORK/a.log"; fail "the waiting client got exit $rc"; }
(((t1 - t0) / 1000 < 3000)) || fail "the waiting client was answered only after $(((t1 - t0) / 1000)) ms"
grep -q "link check off" "$WORK/client.out" || fail "the answer does not say the check is off"
