# SPDX-License-Identifier: MIT
# scenario-timeout: 180
# A switch port that forwards late (STP on the switch, forward delay 4 s:
# a port without portfast listens and learns for 8 s after link-up) is
# not "unreachable" for good: hosts a and b with per-port VLANs on an STP
# bridge;
#   a's switch port a3 flaps -> a's e3 comes up and reaches nobody for
#   those seconds; both hosts healthy within 90 s of a3 forwarding, with
#   no request, and quiet afterwards.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
ip -n "$SW" link add br0 type bridge vlan_filtering 1 vlan_default_pvid 0 stp_state 1 \
	forward_delay 400 2>/dev/null || skip "no VLAN-aware bridge with STP in this kernel"
ip -n "$SW" link set br0 up
declare -A NS
for h in a b; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
forwarding() { [[ $(bridge -n "$SW" link show dev "$1") == *"state forwarding"* ]]; }
all_forwarding() {
	local p
	for p in a1 a2 a3 a4 b1 b2 b3 b4; do forwarding "$p" || return 1; done
}
lc_start "$WORK/host.conf" a b
wait_until 30 all_forwarding || fail "the switch ports never forwarded"
wait_until 90 lc_all_healthy a b || { lc_show_logs a b; fail "not healthy after the ports forwarded"; }
wait_until 30 lc_settled a || { lc_show_logs a; fail "a did not settle at start"; }

ip -n "$SW" link set a3 down
nap 0.5
ip -n "$SW" link set a3 up
wait_until 10 file_has "$WORK/a.log" "e3 ready" || { lc_show_logs a; fail "a did not check when e3 came back"; }
forwarding a3 && fail "a3 forwards at once: STP is not delaying it"
wait_until 30 forwarding a3 || fail "a3 never forwarded again"
t0=${EPOCHREALTIME//[!0-9]/}
wait_until 90 lc_all_healthy a b || { lc_show_logs a b; fail "still degraded 90 s after a3 forwards again"; }
t1=${EPOCHREALTIME//[!0-9]/}
echo "measured: a3 forwarding -> both hosts healthy in $(((t1 - t0) / 1000)) ms"
grep -q 'link check: unreachable' "$WORK/a.log" "$WORK/b.log" && echo "(an unreachable finding was confirmed while a3 learnt)"
wait_until 30 lc_settled a || { lc_show_logs a; fail "a keeps re-checking a clean bond"; }
wait_until 30 lc_settled b || { lc_show_logs b; fail "b keeps re-checking a clean bond"; }
