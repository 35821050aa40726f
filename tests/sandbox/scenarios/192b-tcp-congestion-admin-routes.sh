# SPDX-License-Identifier: MIT
# tcp_congestion among routes bondd does not own, in other layouts than
# 192: bond0 has three subnets.  In 10.1.0.0/24 an admin's route via a
# gateway on another NIC was prepended before bond0's connected route (a
# route of the same key that is not the kernel's); in 10.3.0.0/24 e4's
# connected route came before bond0's; in 10.4.0.0/24 e3 got its address
# after bondd started, so bond0's route is first.  Through reloads setting
# and removing the key three times and a restart, the whole IPv4 table
# (every table, bond0's lines included, with the congctl words taken out)
# stays byte for byte in the same order, `ip -6 route` does not change, and
# each subnet is still reached by the same device.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

avail=$(sysval /proc/sys/net/ipv4/tcp_available_congestion_control)
[[ " $avail " == *" bbr "* ]] || skip "no bbr in this kernel (available: $avail)"

# No duplicate address detection: IPv6 addresses (and their local routes)
# are there at once, not a second later in the middle of a comparison.
echo 0 >/proc/sys/net/ipv6/conf/all/accept_dad
echo 0 >/proc/sys/net/ipv6/conf/default/accept_dad
nics 5
ip -batch - <<IP
addr add 10.3.0.9/24 dev e4
addr add 10.2.0.9/24 dev e5
link set e4 up
link set e5 up
IP
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 1500
slaves = e1 e2
address = 10.1.0.1/24
address = 10.3.0.1/24
address = 10.4.0.1/24
address = fd00:4::1/64
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
ip -batch - <<IP
route prepend 10.1.0.0/24 via 10.2.0.254 dev e5
addr add 10.4.0.9/24 dev e3
addr add fd00:4::9/64 dev e3 nodad
link set e3 up
IP
wait_until 5 has_addr bond0 fd00:4::1/64 || fail "bond0 has no IPv6 address"
# The kernel's IPv6 routes of a link that came up arrive a moment later.
v6_settled() {
	local line d n=0
	while IFS= read -r line; do
		for d in bond0 e3 e4 e5; do
			[[ $line == "local fe80::"*" dev $d table local "* ||
				$line == "multicast ff00::/8 dev $d table local "* ]] && n=$((n + 1))
		done
	done <<<"$(ip -6 route show table all)"
	((n == 8))
}
wait_until 5 v6_settled || fail "the IPv6 routes did not settle: $(ip -6 route show table all)"

# table: every route of every table (`ip route` lists IPv6 with IPv4 here),
# congctl words taken out.
table() {
	local line out=""
	while IFS= read -r line; do
		line=${line/ congctl bbr/}
		out+=$line$'\n'
	done <<<"$(ip route show table all)"
	printf '%s' "$out"
}
via() {
	local line
	line=$(ip -o route get "$1")
	[[ $line =~ dev\ ([a-z0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}
# bbr_count: bond0's routes carrying bbr.
bbr_count() {
	local line n=0
	while IFS= read -r line; do
		[[ $line == *" dev bond0 "*" congctl bbr"* ]] && n=$((n + 1))
	done <<<"$(ip route show table all)"
	echo "$n"
}
count_is() { [ "$(bbr_count)" = "$1" ]; }

table_before=$(table)
v6_before=$(ip -6 route show table all)
[[ $table_before == *"10.1.0.0/24 via 10.2.0.254 dev e5"*"10.1.0.0/24 dev bond0"* ]] ||
	fail "the admin's route is not before bond0's: $table_before"
[[ $table_before == *"10.4.0.0/24 dev bond0"*"10.4.0.0/24 dev e3"* ]] ||
	fail "bond0's route is not before e3's: $table_before"
# same WHAT BEFORE NOW: fails with a diff when they differ.
same() {
	[[ $2 == "$3" ]] && return
	printf '%s\n' "$2" >"$WORK/before"
	printf '%s\n' "$3" >"$WORK/now"
	diff "$WORK/before" "$WORK/now" || true
	fail "$1 changed"
}
check() {
	same "the routes, in order, $1" "$table_before" "$(table)"
	same "the IPv6 routes $1" "$v6_before" "$(ip -6 route show table all)"
	assert_eq e5 "$(via 10.1.0.5)" "the device for 10.1.0.5 $1"
	assert_eq e4 "$(via 10.3.0.5)" "the device for 10.3.0.5 $1"
	assert_eq bond0 "$(via 10.4.0.5)" "the device for 10.4.0.5 $1"
}
check "at start"

for round in 1 2 3; do
	echo "tcp_congestion = bbr" >>"$WORK/bondd.conf"
	status --reload >/dev/null || { show_log; fail "reload refused"; }
	wait_until 3 count_is 3 || { show_log; ip route; fail "bond0's routes: $(bbr_count) with bbr"; }
	check "with the key set (round $round)"
	sed -i '/^tcp_congestion/d' "$WORK/bondd.conf"
	kill -HUP "$BONDD_PID"
	wait_until 3 count_is 0 || { show_log; ip route; fail "bond0's routes: $(bbr_count) with bbr"; }
	check "with the key removed (round $round)"
done
echo "tcp_congestion = bbr" >>"$WORK/bondd.conf"
stop_bondd
start_bondd "$WORK/bondd.conf"
wait_until 3 count_is 3 || { show_log; fail "bond0's routes after a restart: $(bbr_count) with bbr"; }
check "after a restart with the key"
stop_bondd
start_bondd "$WORK/bondd.conf"
check "after a second restart"
echo "every route in its place; bond0's three routes rewritten where they were"
