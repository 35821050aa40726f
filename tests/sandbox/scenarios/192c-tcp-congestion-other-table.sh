# SPDX-License-Identifier: MIT
# Issue 35: tcp_congestion touches only bond0's connected route in the main
# table.  An admin keeps a copy of that route in table 100 (policy routing,
# written as the kernel's own: protocol kernel, scope link, the same
# preferred source) with its own congctl cubic, and table 200 holds a copy
# without any.  Through the start with tcp_congestion = bbr, a reload that
# removes the key, a reload that sets it again and a restart, the main
# table's route follows the key, and tables 100 and 200 stay byte for byte
# as the admin wrote them.  Without the table compared (the bug: the copy in
# table 100 comes first in a dump) bondd rewrote the admin's route.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

avail=$(sysval /proc/sys/net/ipv4/tcp_available_congestion_control)
[[ " $avail " == *" bbr "* ]] || skip "no bbr in this kernel (available: $avail)"

nics 2
conf() {
	cat <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 1500
slaves = e1 e2
address = 10.5.0.1/24
$1
CONF
}
conf "tcp_congestion = bbr" >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
wait_until 5 has_addr bond0 10.5.0.1/24 || fail "bond0 has no address"
ip -batch - <<IP
route add 10.5.0.0/24 dev bond0 table 100 proto kernel scope link src 10.5.0.1 congctl cubic
route add 10.5.0.0/24 dev bond0 table 200 proto kernel scope link src 10.5.0.1
IP

main_route() { ip route show table main 10.5.0.0/24; }
admin() { ip route show table 100; ip route show table 200; }
want_admin="10.5.0.0/24 dev bond0 proto kernel scope link src 10.5.0.1 congctl cubic 
10.5.0.0/24 dev bond0 proto kernel scope link src 10.5.0.1 "
main_has() { [[ $(main_route) == *"congctl bbr"* ]]; }
main_lacks() { [[ $(main_route) != *congctl* ]]; }
check_admin() {
	local now
	now=$(admin)
	[[ $now == "$want_admin" ]] || { printf 'table 100, 200 now:\n%s\n' "$now"; fail "$1: the admin's copies changed"; }
}

wait_until 5 main_has || fail "the main table's route did not get bbr: $(main_route)"
check_admin "after the start"
# bondd is idle after its pass: nothing is rewritten in a loop.
writes=$(log_count "apply:")
nap 1
assert_eq "$writes" "$(log_count "apply:")" "writes a second after the start"

conf "" >"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "reload without tcp_congestion refused"; }
wait_until 5 main_lacks || fail "bbr stayed on the main route: $(main_route)"
check_admin "after removing the key"

conf "tcp_congestion = bbr" >"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "reload with tcp_congestion refused"; }
wait_until 5 main_has || fail "bbr did not come back: $(main_route)"
check_admin "after setting it again"

stop_bondd
start_bondd "$WORK/bondd.conf"
nap 0.5
main_has || fail "bbr gone after the restart: $(main_route)"
check_admin "after a restart"
echo "main: $(main_route)"
echo "table 100 kept congctl cubic, table 200 none, through start, two reloads and a restart"
