# SPDX-License-Identifier: MIT
# Issue 35: bondd judges options as the kernel does
# (drivers/net/bonding/bond_options.c).
# 1. A value the running kernel refuses: ad_select = actor_port_prio before
#    6.18 (Debian's 6.1.176 refuses it, though its slaves report their
#    actor_port_prio).  --check fails naming FILE:LINE; a reload is refused
#    before anything is touched: the 802.3ad bond keeps its ifindex, no
#    port loses carrier or is released (bondwatch sees every link change),
#    no "apply:" line.  On a kernel that has the value, the reload takes it
#    and the kernel reports ad_select 3.
# 2. What the kernel takes and keeps although it ignores it: arp_missed_max
#    without arp_interval (systemd-networkd's ARPMissedMax= beside
#    MIIMonitorSec=), xmit_hash_policy in active-backup, an updelay it
#    rounds down.  --check passes with warnings; the reload sets them; the
#    kernel reports them; bondd then writes nothing more (it compares what it
#    expects with what the kernel reports).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

# Does this kernel take ad_select = actor_port_prio? Asked of a throwaway bond.
ip link add probe0 type bond mode 802.3ad
has_prio=0
"$NLOPT" set probe0 ad_select 3 2>/dev/null && has_prio=1
ip link del probe0

nics 4
conf() {
	cat <<CONF
[bond0]
mode = 802.3ad
miimon = 100
mtu = 1500
slaves = e1 e2
ad_select = $1
CONF
}
conf stable >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null

conf actor_port_prio >"$WORK/next.conf"
rc=0
"$BONDD" --check --config "$WORK/next.conf" >"$WORK/check.out" 2>&1 || rc=$?
cat "$WORK/check.out"
if ((has_prio == 0)); then
	[ "$rc" -ne 0 ] || fail "--check took ad_select = actor_port_prio on $(uname -r)"
	file_has "$WORK/check.out" "$WORK/next.conf:6: ad_select = actor_port_prio needs Linux 6.18 or later" ||
		fail "--check did not name the line and the kernel"
	if file_has "$WORK/check.out" "configuration OK"; then fail "--check said OK"; fi

	before=$(counters bond0)
	writes=$(log_count "apply:")
	watch_start bond0 e1,e2 1500 --after-new never0 --verbose
	cp "$WORK/next.conf" "$WORK/bondd.conf"
	rc=0
	err=$(status --reload 2>&1) || rc=$?
	echo "reload: $err"
	assert_eq 1 "$rc" "bondd-status --reload exit status"
	[[ $err == *"bondd.conf:6: ad_select = actor_port_prio needs Linux 6.18"* ]] ||
		fail "the refused reload said \"$err\""
	nap 1
	kill "$WATCH_PID" 2>/dev/null || true
	wait "$WATCH_PID" 2>/dev/null || true
	cat "$WORK/watch.out"
	if grep -E " changed e[12] .*master 0" "$WORK/watch.out"; then
		fail "a port was released for a value the kernel refuses"
	fi
	if grep -E " changed (e[12]|bond0) .* down$" "$WORK/watch.out"; then
		fail "a port or the bond went down for a value the kernel refuses"
	fi
	assert_eq "$before" "$(counters bond0)" "bond0 after the refused reload"
	assert_eq "$writes" "$(log_count "apply:")" "writes after the refused reload"
	[[ $(sysval /sys/class/net/bond0/bonding/ad_select) == "stable 0" ]] ||
		fail "ad_select is $(sysval /sys/class/net/bond0/bonding/ad_select)"
	echo "kernel $(uname -r) refuses ad_select = actor_port_prio: refused at --check and reload, bond0 untouched"
else
	[ "$rc" -eq 0 ] || fail "--check refused ad_select = actor_port_prio on $(uname -r)"
	cp "$WORK/next.conf" "$WORK/bondd.conf"
	status --reload >/dev/null || { show_log; fail "the reload was refused"; }
	whole bond0 e1,e2 1500 >/dev/null
	out=$("$NLOPT" get bond0)
	[[ $out == *"ad_select 3"* ]] || { echo "$out"; fail "the kernel does not report ad_select 3"; }
	echo "kernel $(uname -r) has ad_select = actor_port_prio: taken by --check and the reload"
fi

# 2. Kept as the kernel keeps them.
conf stable >"$WORK/bondd.conf"
cat >>"$WORK/bondd.conf" <<CONF

[bond1]
mode = active-backup
miimon = 100
updelay = 250
mtu = 1500
slaves = e3 e4
arp_missed_max = 10
xmit_hash_policy = layer3+4
CONF
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check2.out" 2>&1 ||
	{ cat "$WORK/check2.out"; fail "--check refused what the kernel takes"; }
cat "$WORK/check2.out"
for want in "bondd.conf:14: warning: arp_missed_max has no effect without arp_interval" \
	"bondd.conf:15: warning: xmit_hash_policy has no effect in mode active-backup" \
	"bondd.conf:11: warning: updelay: 250 is not a multiple of miimon (100): the kernel rounds it down to 200"; do
	file_has "$WORK/check2.out" "$want" || fail "--check lacks \"$want\""
done
status --reload >/dev/null || { show_log; fail "the reload with bond1 was refused"; }
whole bond1 e3,e4 1500 >/dev/null
assert_eq 10 "$(sysval /sys/class/net/bond1/bonding/arp_missed_max)" "bond1 arp_missed_max"
assert_eq "layer3+4 1" "$(sysval /sys/class/net/bond1/bonding/xmit_hash_policy)" "bond1 xmit_hash_policy"
assert_eq 200 "$(sysval /sys/class/net/bond1/bonding/updelay)" "bond1 updelay"
# What bondd expects is what the kernel reports: nothing more is written.
writes=$(log_count "apply:")
nap 2
assert_eq "$writes" "$(log_count "apply:")" "writes 2 s after bond1 was made"
echo "arp_missed_max 10 without arp_interval, xmit_hash_policy in active-backup, updelay 250 -> 200: set, kept, not rewritten"
