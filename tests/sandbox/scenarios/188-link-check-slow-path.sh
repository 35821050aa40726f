# SPDX-License-Identifier: MIT
# scenario-timeout: 150
# Late is not one-way: hosts a, b and c with per-port VLANs as in 180, the
# switch's port c1 delaying every frame towards c's e1 by 1.5 s (netem), so
# that c's answers on e1 come after a check's first second while c's own
# requests arrive at once.  No host logs a link check warning, every host
# is healthy with a whole matrix (the late answers counted), and every
# host settles (later checks wait long enough for the slow path).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

HOSTS=(a b c)
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
for h in "${HOSTS[@]}"; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
tc -n "$SW" qdisc add dev c1 root netem delay 1500ms limit 10000 ||
	skip "no netem in this kernel"
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
lc_start "$WORK/host.conf" "${HOSTS[@]}"
t0=${EPOCHREALTIME//[!0-9]/}
# every host's four slaves answered at every size by the two others
all_whole() { lc_all_whole 8 "${HOSTS[@]}"; }
all_settled() { lc_all_settled "${HOSTS[@]}"; }
wait_until 30 all_whole || { lc_show_logs "${HOSTS[@]}"; fail "not every host's matrix became whole"; }
# a few checks with the slow path: each host asks once more
for h in "${HOSTS[@]}"; do
	"$BONDD_STATUS" --socket "$WORK/$h.sock" --link-check >"$WORK/$h.table" 2>&1 || true
done
for h in "${HOSTS[@]}"; do
	if grep -q 'warning: .*link check' "$WORK/$h.log"; then
		cat "$WORK/$h.table"
		lc_show_logs "$h"
		fail "host $h logged a link check warning for a path that is slow, not one-way"
	fi
done
lc_all_healthy "${HOSTS[@]}" || { lc_show_logs "${HOSTS[@]}"; fail "not every host healthy"; }
wait_until 90 all_settled || { lc_show_logs "${HOSTS[@]}"; fail "not every host settled with a slow path"; }
t1=${EPOCHREALTIME//[!0-9]/}
lc_all_healthy "${HOSTS[@]}" || { lc_show_logs "${HOSTS[@]}"; fail "not every host healthy once settled"; }
json=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
echo "measured: a 1.5 s path to c's e1: all whole, healthy, no warning, settled in" \
	"$(((t1 - t0) / 1000)) ms; a's last check waited up to $(lc_json_num "$json" wait_ms) ms," \
	"$(lc_json_num "$json" late_answers) late answers"
