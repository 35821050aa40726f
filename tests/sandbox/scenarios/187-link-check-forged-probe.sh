# SPDX-License-Identifier: MIT
# One forged request does not degrade a bond: hosts a and b with per-port
# VLANs as in 180, a station x without bondd on port x1 (VLAN 21);
#   x sends one 128-byte request asking to be probed back, from a host id
#   no bondd has (tests/sandbox/lc-rogue.py probe) -> a checks (it cannot
#   know yet), and its health stays 0 throughout: a station that never
#   answered a probe of ours is no peer, and its request proves no path
#   for a finding.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
for h in a b x; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
ip -n "${NS[x]}" link set e1 up
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
lc_start "$WORK/host.conf" a b
wait_until 30 lc_all_healthy a b || { lc_show_logs a b; fail "not healthy at start"; }
settled_ab() { lc_settled a && lc_settled b; }
wait_until 30 settled_ab || { lc_show_logs a b; fail "a and b did not settle"; }
checks() { grep -c "link check done" "$WORK/a.log" || true; }
before=$(checks)
ip netns exec "${NS[x]}" python3 "$LIB_DIR/lc-rogue.py" probe e1
wait_until 10 file_has "$WORK/a.log" "probe from eeeeeeee" || { lc_show_logs a; fail "a did not see the forged request"; }
# health sampled for 5 s after the forged frame: never degraded
end=$((${EPOCHREALTIME%.*} + 5))
while ((${EPOCHREALTIME%.*} < end)); do
	lc_health a || { "$BONDD_STATUS" --socket "$WORK/a.sock" --link-check; lc_show_logs a; fail "one forged request degraded a"; }
	nap 0.2
done
echo "measured: a made $(($(checks) - before)) checks after the forged request; health 0 throughout"
json=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
[[ $json != *'"kind":"one-way"'* ]] || fail "a shows a one-way finding"
