# SPDX-License-Identifier: MIT
# scenario-timeout: 90
# Two hosts whose first checks heard no one check again on their own, with
# no link change (bondd(8), LINK CHECK: a bond that heard no peer).  Hosts a
# and b run bondd (balance-rr of e1 in VLAN 10 and e2 in VLAN 20, as 181b),
# but b's switch ports forward nothing yet (VLANs 91 and 92 of their own;
# carrier is up: a switch port in spanning tree's listening and learning
# after a power cut, or a peer whose first check ended before the other
# listened).  a starts and its first check ends, hearing no one; b starts
# 3 s later and its first check ends, hearing no one.  Then b's ports
# forward (moved into VLANs 10 and 20 on the switch: no carrier change on
# either host, so neither bondd has a change to check on; before the
# retry, neither checked again and a's matrix stayed empty for good).
#   -> within 15 s, a's matrix shows b's e1 on e1 and b's e2 on e2 at every
#      size, and b's shows a's, with no slave of either host ready again
#   -> no link check warning, both healthy, and both settle: the last
#      check says "next check on a change" and retry_in_ms is 0 (the
#      retries stop once a peer answered)
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS PID
lc_cluster "$SW" a b
# b's ports forward nowhere yet: each alone in a VLAN of its own
bridge -n "$SW" -batch - <<<"vlan del dev b1 vid 10
vlan add dev b1 vid 91 pvid untagged
vlan del dev b2 vid 20
vlan add dev b2 vid 92 pvid untagged"
trap lc_stop EXIT

lc_start "$WORK/host.conf" a
wait_until 10 file_has "$WORK/a.log" "link check done" || { lc_show_logs a; fail "a made no link check"; }
nap 3
lc_start "$WORK/host.conf" b
wait_until 10 file_has "$WORK/b.log" "link check done" || { lc_show_logs b; fail "b made no link check"; }
# The race reproduced: neither has heard the other.
lc_whole a 0 && lc_whole b 0 || { lc_show_logs a b; fail "a and b heard each other before b's ports forwarded"; }

# The ports forward: each log's lines from here on are the checks after it.
mapfile -t la <"$WORK/a.log"
mapfile -t lb <"$WORK/b.log"
bridge -n "$SW" -batch - <<<"vlan del dev b1 vid 91
vlan add dev b1 vid 10 pvid untagged
vlan del dev b2 vid 92
vlan add dev b2 vid 20 pvid untagged"
t0=${EPOCHREALTIME//[!0-9]/}
both_whole() { lc_all_whole 2 a b; }
wait_until 15 both_whole || {
	for h in a b; do "$BONDD_STATUS" --socket "$WORK/$h.sock" --link-check; done
	lc_show_logs a b
	fail "a and b did not see each other within 15 s of b's ports forwarding, with no link change"
}
t1=${EPOCHREALTIME//[!0-9]/}
# what started the checks since: a retry, or the other's request, never a
# slave ready (no link changed)
after() { tail -n "+$(($2 + 1))" "$WORK/$1.log"; }
if after a "${#la[@]}" | grep -E 'link check (started|done).*\(e[12] ready\)' ||
	after b "${#lb[@]}" | grep -E 'link check (started|done).*\(e[12] ready\)'; then
	fail "a slave became ready again: a link change, not the retry, made the check"
fi
retries=$( (after a "${#la[@]}"; after b "${#lb[@]}") | grep -c 'link check started (no peer yet)' || true)
echo "measured: a and b saw each other $(((t1 - t0) / 1000)) ms after b's ports forwarded" \
	"($retries retries of a check that heard no one; no link change)"
((retries >= 1)) || { lc_show_logs a b; fail "no retry ran, yet they saw each other"; }

if grep 'warning: .*link check' "$WORK/a.log" "$WORK/b.log"; then
	fail "a link check warning"
fi
lc_all_healthy a b || { lc_show_logs a b; fail "not every host healthy"; }
retry_off() {
	local json
	lc_settled "$1" || return 1
	json=$("$BONDD_STATUS" --socket "$WORK/$1.sock" --json 2>/dev/null) || return 1
	[[ $json == *'"retry_in_ms":0,'* ]]
}
both_quiet() { retry_off a && retry_off b; }
wait_until 20 both_quiet || { lc_show_logs a b; fail "a and b did not settle once they heard each other"; }
echo "a and b: whole matrices with no link change, healthy, no warning, quiet again"
