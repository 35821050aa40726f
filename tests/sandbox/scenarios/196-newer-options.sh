# SPDX-License-Identifier: MIT
# Issue 23, the options added since 6.1: an 802.3ad bond with
# coupled_control = off and broadcast_neighbor = on (and lacp_strict = on),
# each where the kernel has it, set through bondd, read back from the
# kernel's own RTM_GETLINK reply by nl-bondopt (attribute numbers, not
# bondd's table; the host's iproute2 6.1 cannot print them), and from
# --json.  --check --plan marks a coupled_control change disruptive (the
# kernel takes it only on a bond that is down).  A reload turning
# broadcast_neighbor (and lacp_strict) off changes them in place: same
# ifindex, no slave released (bondwatch sees every link change), nothing
# marked disruptive.  Skips on a kernel with neither option; on one with
# coupled_control only (Debian's 6.1.176 and 6.12.113, from stable), the
# broadcast_neighbor part is left out, and the output says so.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

# What this kernel has, asked of a throwaway bond (a kernel too old for
# an attribute ignores it silently: nl-bondopt exits 3 then).
ip link add probe0 type bond mode 802.3ad
has() { "$NLOPT" set probe0 "$1" "$2" 2>/dev/null; }
bn=0 strict=0
has broadcast_neighbor 1 && bn=1
has coupled_control 0 ||
	skip "kernel $(uname -r) has no coupled_control (mainline 6.9 and later, or a stable kernel that took it)"
has lacp_strict 1 && strict=1
ip link del probe0
((bn)) || echo "kernel $(uname -r) has no broadcast_neighbor (6.17 and later): that part is not run here"

nics 2
conf() {
	cat <<CONF
[bond0]
mode = 802.3ad
miimon = 100
mtu = 1500
slaves = e1 e2
coupled_control = $1
CONF
	((bn)) && echo "broadcast_neighbor = $2"
	((strict)) && echo "lacp_strict = $3"
	return 0
}
conf off on on >"$WORK/bondd.conf"
"$BONDD" --check --config "$WORK/bondd.conf" || fail "--check refuses the options"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null

# kernel NAME: the option's value in the kernel's reply.
kernel() {
	local name value out
	out=$("$NLOPT" get bond0) || fail "nl-bondopt get bond0 failed"
	while read -r name value; do
		[[ $name == "$1" ]] && { echo "$value"; return 0; }
	done <<<"$out"
	echo "absent"
}
assert_eq 0 "$(kernel coupled_control)" "coupled_control in the kernel"
((bn)) && assert_eq 1 "$(kernel broadcast_neighbor)" "broadcast_neighbor in the kernel"
((strict)) && assert_eq 1 "$(kernel lacp_strict)" "lacp_strict in the kernel"
echo "set through bondd and read back: coupled_control 0, broadcast_neighbor $bn, lacp_strict $strict"

# bondd's own view agrees (observed options, from the same replies).
json=$(status --json) || [[ $? == 1 ]] # degraded: no LACP partner
[[ $json == *'"coupled_control":false'* ]] || { echo "$json"; fail "--json lacks coupled_control"; }
((bn == 0)) || [[ $json == *'"broadcast_neighbor":true'* ]] ||
	{ echo "$json"; fail "--json lacks broadcast_neighbor"; }

# coupled_control needs the bond down: a rebuild, marked.
conf on on on >"$WORK/cc.conf"
"$BONDD" --check --plan --config "$WORK/cc.conf" >"$WORK/plan-cc.out"
cat "$WORK/plan-cc.out"
file_has "$WORK/plan-cc.out" "coupled_control=on (rebuild)  [disrupts traffic]" ||
	fail "a coupled_control change is not marked disruptive"
assert_eq 0 "$(kernel coupled_control)" "coupled_control after --check --plan"
((bn)) || exit 0

# The plan for a reload with broadcast_neighbor off: a change in place.
conf off off off >"$WORK/next.conf"
"$BONDD" --check --plan --config "$WORK/next.conf" >"$WORK/plan.out"
cat "$WORK/plan.out"
file_has "$WORK/plan.out" "broadcast_neighbor=off" || fail "the plan lacks broadcast_neighbor"
file_has "$WORK/plan.out" "disrupts traffic" && fail "broadcast_neighbor marked disruptive"

# The reload, watched from outside: every link change, for 4 s (the
# trigger never comes).
index=$(sysval /sys/class/net/bond0/ifindex)
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 1500 --after-new never0 --timeout 4 --verbose \
	>"$WORK/watch.out" 2>"$WORK/watch.err" &
watch=$!
wait_until 5 file_has "$WORK/watch.out" watching || fail "bondwatch did not start"
cp "$WORK/next.conf" "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
wait_until 5 eval '[[ $(kernel broadcast_neighbor) == 0 ]]' ||
	{ show_log; fail "broadcast_neighbor is $(kernel broadcast_neighbor) after the reload"; }
((strict)) && assert_eq 0 "$(kernel lacp_strict)" "lacp_strict after the reload"
assert_eq 0 "$(kernel coupled_control)" "coupled_control after the reload"
wait "$watch" || true
cat "$WORK/watch.err"
while read -r _ _ what name _ _ _ master _; do
	[[ $name == e1 || $name == e2 || $name == bond0 ]] || continue
	[[ $what == gone ]] && fail "$name was deleted during the reload"
	[[ $name != bond0 && $master == 0 ]] && fail "$name was released during the reload"
done <"$WORK/watch.err"
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex"
assert_eq "e1 e2" "$(sysval /sys/class/net/bond0/bonding/slaves)" "slaves"
file_has "$BONDD_LOG" "(rebuild)" && { show_log; fail "the reload rebuilt the bond"; }
echo "broadcast_neighbor changed in place: no release, same ifindex"
