# SPDX-License-Identifier: MIT
# scenario-timeout: 150
# A host that appears is learnt by every host, even when their budgets for
# peers' wishes are spent: hosts a and b with per-port VLANs as in 180
# start and settle; a station x without bondd on port x1 (VLAN 21) sends
# 12 requests asking to be probed back, each from another made-up host,
# 0.6 s apart (lc-rogue.py wishes): a and b check for them until the
# strangers' bucket is empty (4, then one every 15 s).  Then host c
# starts: its checks are answered by a and b and it goes quiet, so its
# first wishes are the only news a and b get of it.  They must not be
# dropped: within 45 s every host's matrix is whole (8 paths: four slaves
# answered at every size by the two others), every host healthy, no link
# check warning.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

HOSTS=(a b c)
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
for h in "${HOSTS[@]}" x; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
ip -n "${NS[x]}" link set e1 up
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
lc_start "$WORK/host.conf" a b
wait_until 30 lc_all_whole 4 a b || { lc_show_logs a b; fail "a and b did not see each other"; }
wait_until 30 lc_all_settled a b || { lc_show_logs a b; fail "a and b did not settle"; }
ip netns exec "${NS[x]}" python3 "$LIB_DIR/lc-rogue.py" wishes e1 12 0.6
nap 2
checks() { grep -c "link check done" "$WORK/$1.log" || true; }
before=$(checks a)
t0=${EPOCHREALTIME//[!0-9]/}
lc_start "$WORK/host.conf" c
all_whole() { lc_all_whole 8 "${HOSTS[@]}"; }
wait_until 45 all_whole || {
	for h in "${HOSTS[@]}"; do "$BONDD_STATUS" --socket "$WORK/$h.sock" --link-check; done
	lc_show_logs "${HOSTS[@]}"
	fail "not every host's matrix became whole after c started"
}
t1=${EPOCHREALTIME//[!0-9]/}
for h in "${HOSTS[@]}"; do
	if grep -q 'warning: .*link check' "$WORK/$h.log"; then
		lc_show_logs "$h"
		fail "host $h logged a link check warning"
	fi
done
lc_all_healthy "${HOSTS[@]}" || { lc_show_logs "${HOSTS[@]}"; fail "not every host healthy"; }
echo "measured: c learnt by a and b $(((t1 - t0) / 1000)) ms after it started, with their" \
	"strangers' budget spent; a made $(($(checks a) - before)) checks meanwhile"
all_settled() { lc_all_settled "${HOSTS[@]}"; }
wait_until 60 all_settled || { lc_show_logs "${HOSTS[@]}"; fail "not every host settled once c was learnt"; }
