# SPDX-License-Identifier: MIT
# scenario-timeout: 150
# Five hosts (a..e, four slaves each, per-port VLANs as in 180) start
# bondd at the same moment: their first checks overlap with peers that are
# not listening yet.  What one check saw and the next did not repeat is
# never a warning: no host logs a link check warning, every host is
# healthy with a whole matrix, and all go quiet.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

HOSTS=(a b c d e)
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
for h in "${HOSTS[@]}"; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
t0=${EPOCHREALTIME//[!0-9]/}
lc_start "$WORK/host.conf" "${HOSTS[@]}"
all_settled() { lc_all_settled "${HOSTS[@]}"; }
# every host's four slaves answered at every size by the four others
all_whole() { lc_all_whole 16 "${HOSTS[@]}"; }
wait_until 60 all_whole || { lc_show_logs "${HOSTS[@]}"; fail "not every host's matrix became whole"; }
nap 3
for h in "${HOSTS[@]}"; do
	if grep -q 'warning: .*link check' "$WORK/$h.log"; then
		lc_show_logs "$h"
		fail "host $h logged a link check warning while starting with the others"
	fi
done
lc_all_healthy "${HOSTS[@]}" || { lc_show_logs "${HOSTS[@]}"; fail "not every host healthy"; }
wait_until 60 all_settled || { lc_show_logs "${HOSTS[@]}"; fail "not every host settled"; }
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: five hosts started together: whole, healthy, no warning, quiet in $(((t1 - t0) / 1000)) ms"
