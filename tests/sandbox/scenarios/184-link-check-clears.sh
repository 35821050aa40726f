# SPDX-License-Identifier: MIT
# scenario-timeout: 180
# A link check finding clears by itself once the switch is right, with no
# carrier event and no request (linkcheck_settle.h): hosts a and b with
# per-port VLANs as in 180;
#   b2 and b3's VLANs swapped, a check asked for on a -> crossed, confirmed
#   on both hosts (exit 1), a pending finding shown as such meanwhile
#   the VLANs swapped back, nothing else -> both healthy within 90 s, and
#   both go quiet again (no re-check due)
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
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
lc_start "$WORK/host.conf" a b
wait_until 30 lc_all_healthy a b || { lc_show_logs a b; fail "not healthy at start"; }
wait_until 30 file_has "$WORK/b.log" "link check done" || fail "b made no check"

lc_vlan "$SW" b2 23 b3 22
nap 0.6
rc=0
"$BONDD_STATUS" --socket "$WORK/a.sock" --link-check >"$WORK/a.table" 2>&1 || rc=$?
cat "$WORK/a.table"
[ "$rc" -eq 1 ] || { lc_show_logs a b; fail "a: --link-check exit $rc with ports crossed, expected 1"; }
grep -q '^crossed: ' "$WORK/a.table" || fail "a's table shows no confirmed crossed finding"
# b learnt of it from a's probes, and confirms it by itself
wait_until 15 lc_health_is b 1 || { lc_show_logs a b; fail "b not degraded with ports crossed"; }
json=$("$BONDD_STATUS" --socket "$WORK/b.sock" --json) || true
[[ $json == *'"kind":"crossed","severity":"degraded"'* ]] || fail "b's crossed finding not confirmed"
# Real output for the validators (tests/check-status-outputs): a settling
# bond with a confirmed finding.
mkdir -p "$BUILD_DIR/status-samples"
printf '%s\n' "$json" >"$BUILD_DIR/status-samples/184-crossed.json"
"$BONDD_STATUS" --socket "$WORK/a.sock" --prometheus >"$BUILD_DIR/status-samples/184-crossed.prom" || true

lc_vlan "$SW" b2 22 b3 23
t0=${EPOCHREALTIME//[!0-9]/}
wait_until 90 lc_all_healthy a b || { lc_show_logs a b; fail "still degraded 90 s after the switch was put right"; }
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: ports put right -> both hosts healthy in $(((t1 - t0) / 1000)) ms, no event, no request"
wait_until 15 lc_settled a || { lc_show_logs a; fail "a keeps re-checking a clean bond"; }
wait_until 15 lc_settled b || { lc_show_logs b; fail "b keeps re-checking a clean bond"; }
lc_all_healthy a b || fail "not healthy once settled"
