# SPDX-License-Identifier: MIT
# tcp_congestion with another NIC (not bondd's) in the bond's subnet, as on
# a storage node with a second iSCSI/NFS path: bondd writes only bond0's
# route.  e3's route stays byte for byte (compared as `ip route` text)
# before, while the key is set, after a reload removing it, after a
# restart and after a reload setting it again; the route a packet to the
# subnet takes (`ip route get`) does not change either, whichever of the
# two routes the kernel lists first.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

avail=$(sysval /proc/sys/net/ipv4/tcp_available_congestion_control)
[[ " $avail " == *" bbr "* ]] || skip "no bbr in this kernel (available: $avail)"

nics 3
ip -batch - <<IP
addr add 10.1.0.9/24 dev e3
link set e3 up
IP

# others: every route line that is not bond0's, in the kernel's order.
others() {
	local line out=""
	while IFS= read -r line; do
		[[ $line == *" dev bond0 "* ]] || out+=$line$'\n'
	done < <(ip route show table all)
	printf '%s' "$out"
}
# bond_cc: the congestion control on bond0's route to the subnet.
bond_cc() {
	local line
	line=$(ip -o route show 10.1.0.0/24 dev bond0)
	[[ -n $line ]] || { echo no-route; return; }
	[[ $line =~ congctl\ (lock\ )?([a-z0-9_]+) ]] && echo "${BASH_REMATCH[2]}" || echo ""
}
cc_is() { [ "$(bond_cc)" = "$1" ]; }
# via: the device a packet to 10.1.0.5 leaves by.
via() {
	local line
	line=$(ip -o route get 10.1.0.5)
	[[ $line =~ dev\ ([a-z0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}

e3_route=$(ip route show dev e3)
[[ $e3_route == *"10.1.0.0/24"* ]] || fail "e3 has no route to its subnet: '$e3_route'"
others_before=$(others)

write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
slaves = e1 e2
address = 10.1.0.1/24
tcp_congestion = bbr
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

# check WHEN: e3's route and every other route as they were, bond0's
# route present, packets to the subnet still leaving by $WANT_VIA.
check() {
	assert_eq "$e3_route" "$(ip route show dev e3)" "e3's route $1"
	assert_eq "$others_before" "$(others)" "the routes that are not bond0's $1"
	assert_eq "$WANT_VIA" "$(via)" "the device for 10.1.0.5 $1"
}
WANT_VIA=e3 # e3's route came first: the kernel appends bond0's after it

assert_eq bbr "$(bond_cc)" "bond0's route at start"
check "with tcp_congestion set"

# The key removed by reload: bond0's route loses bbr, e3's is untouched.
sed -i '/^tcp_congestion/d' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is "" || { show_log; fail "bond0's route still has $(bond_cc)"; }
check "after a reload removing the key"

# The key back, then a restart: nothing to write, nothing changes.
echo "tcp_congestion = bbr" >>"$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is bbr || { show_log; fail "bond0's route has '$(bond_cc)'"; }
check "after a reload setting the key again"
stop_bondd
start_bondd "$WORK/bondd.conf"
assert_eq bbr "$(bond_cc)" "bond0's route after a restart"
check "after a restart"

# Now bond0's route first: e3's address re-added goes after it.  Setting
# the algorithm again must keep bond0's route in front.
sed -i '/^tcp_congestion/d' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is "" || { show_log; fail "bond0's route still has $(bond_cc)"; }
ip -batch - <<IP
addr del 10.1.0.9/24 dev e3
addr add 10.1.0.9/24 dev e3
IP
e3_route=$(ip route show dev e3)
others_before=$(others)
WANT_VIA=bond0
check "with bond0's route first"
echo "tcp_congestion = bbr" >>"$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is bbr || { show_log; fail "bond0's route has '$(bond_cc)'"; }
check "after setting the key with bond0's route first"
assert_eq 0 "$(log_count "could not be put back")" "restores"
echo "e3's route untouched; bond0's route rewritten in its place"
