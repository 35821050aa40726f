# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# The link check at cluster size: 16 hosts (a..p) x 2 slaves through one
# switch with per-port VLANs (every host's e1 in VLAN 10, e2 in VLAN 20; a
# right topology), every host running bondd, all started together.  All
# share the guest's one CPU, so answers come late: late is not one-way.
#   -> all 16 healthy within 90 s of starting, no link check warning
#   switch port a1 flaps -> all 16 healthy within 90 s of it
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

HOSTS=(a b c d e f g h i j k l m n o p)
SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
lc_cluster "$SW" "${HOSTS[@]}"
trap lc_stop EXIT
healthy_count() {
	local h n=0
	for h in "${HOSTS[@]}"; do lc_health "$h" && n=$((n + 1)); done
	echo "$n"
}
all_healthy() { [ "$(healthy_count)" -eq ${#HOSTS[@]} ]; }
# every host has checked at least once (a host that has not is healthy
# trivially)
all_checked() {
	local h
	for h in "${HOSTS[@]}"; do file_has "$WORK/$h.log" "link check done" || return 1; done
}
t0=${EPOCHREALTIME//[!0-9]/}
lc_start "$WORK/host.conf" "${HOSTS[@]}"
wait_until 60 all_checked || fail "not every host made a link check"
# a few seconds for the first checks' findings to be confirmed, if any
nap 5
wait_until 85 all_healthy || { lc_show_logs a b; fail "$(healthy_count) of 16 healthy 90 s after starting together"; }
t1=${EPOCHREALTIME//[!0-9]/}
warned=$(cat "$WORK"/?.log | grep -c 'warning: .*link check' || true)
json=$("$BONDD_STATUS" --socket "$WORK/a.sock" --json) || true
lc_json_answered "$json" answered
echo "measured: 16 hosts x 2 slaves started together: all healthy in $(((t1 - t0) / 1000)) ms;" \
	"a's last check: $answered of 30 peer slaves answered every size," \
	"waited up to $(lc_json_num "$json" wait_ms) ms, took $(lc_json_num "$json" took_ms) ms;" \
	"$warned link check warnings in all logs"
((warned == 0)) || { grep -h 'warning: .*link check' "$WORK"/?.log | head; fail "link check warnings at cluster size"; }

ready_lines() { grep -c 'e1 ready' "$WORK/a.log" || true; }
ready0=$(ready_lines)
more_ready() { [ "$(ready_lines)" -gt "$ready0" ]; }
ip -n "$SW" link set a1 down
nap 1
ip -n "$SW" link set a1 up
t0=${EPOCHREALTIME//[!0-9]/}
wait_until 10 more_ready || fail "a did not check after e1 returned"
nap 5
wait_until 85 all_healthy || { lc_show_logs a b; fail "$(healthy_count) of 16 healthy 90 s after a1 flapped"; }
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: a1 flapped: all 16 healthy again in $(((t1 - t0) / 1000)) ms"
warned=$(cat "$WORK"/?.log | grep -c 'warning: .*link check' || true)
((warned == 0)) || { grep -h 'warning: .*link check' "$WORK"/?.log | head; fail "link check warnings after one flap"; }
