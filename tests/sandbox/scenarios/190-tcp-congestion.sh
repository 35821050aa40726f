# SPDX-License-Identifier: MIT
# tcp_congestion = bbr: a connection over the bond's own subnet gets bbr,
# one over another interface the machine's default, which stays as it was.
# The setting holds across a slave re-created, an address added by reload
# and a restart (which writes nothing and makes no link event); removing
# the key restores the kernel's default on those routes.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
: "${TCPCC:=$BUILD_DIR/tests/sandbox/tcpcc}"

avail=$(sysval /proc/sys/net/ipv4/tcp_available_congestion_control)
[[ " $avail " == *" bbr "* ]] || skip "no bbr in this kernel (available: $avail)"
default=$(sysval /proc/sys/net/ipv4/tcp_congestion_control)
[ "$default" != bbr ] || fail "the machine default is already bbr: the test would prove nothing"

# e1 e2 in the bond; e3 a plain interface beside it.  The peer bonds p1
# p2 itself (a plain balance-rr bond, not bondd's).
nics 3
ip -n "$PEER" -batch - <<IP
link add pb type bond mode balance-rr
link set p1 down
link set p1 master pb
link set p2 down
link set p2 master pb
link set pb up
addr add 10.77.0.2/24 dev pb
addr add 10.79.0.2/24 dev pb
addr add 10.78.0.2/24 dev p3
IP
ip -batch - <<IP
addr add 10.78.0.1/24 dev e3
link set e3 up
IP
: >"$WORK/listen.out"
ip netns exec "$PEER" "$TCPCC" listen 0.0.0.0 5001 >"$WORK/listen.out" 2>&1 &
LISTENER=$!
trap 'kill $LISTENER 2>/dev/null; bondd_cleanup' EXIT
wait_until 5 file_has "$WORK/listen.out" listening || fail "tcpcc did not listen"

write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
slaves = e1 e2
address = 10.77.0.1/24
tcp_congestion = bbr
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

# route_cc NET: the congestion control on bond0's route to NET ("" none).
route_cc() {
	local line
	line=$(ip -o route show "$1" dev bond0)
	[[ -n $line ]] || { echo "no-route"; return; }
	[[ $line =~ congctl\ (lock\ )?([a-z0-9_]+) ]] && echo "${BASH_REMATCH[2]}" || echo ""
}
cc_is() { [ "$(route_cc "$1")" = "$2" ]; }
cc_of() { "$TCPCC" connect "$1" 5001 || fail "no connection to $1"; }

# Set before "ready": the first pass includes it.
assert_eq bbr "$(route_cc 10.77.0.0/24)" "route congestion control at start"
assert_eq bbr "$(cc_of 10.77.0.2)" "a connection over bond0"
assert_eq "$default" "$(cc_of 10.78.0.2)" "a connection over e3"
assert_eq "$default" "$(sysval /proc/sys/net/ipv4/tcp_congestion_control)" "the machine default"

# A slave re-created: the bond's route is untouched, the connection still bbr.
ip -batch - <<IP
link del e2
link add e2 type veth peer name p2 netns $PEER
IP
ip -n "$PEER" link set p2 master pb
whole bond0 e1,e2 9000 >/dev/null
assert_eq bbr "$(route_cc 10.77.0.0/24)" "after a slave re-created"
assert_eq bbr "$(cc_of 10.77.0.2)" "a connection after a slave re-created"

# An address added by reload: its route gets bbr within 3 s (each poll
# starts two processes, about 200 ms in the guest).
sed -i 's|^address = 10.77.0.1/24|&\naddress = 10.79.0.1/24|' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is 10.79.0.0/24 bbr || { show_log; fail "the new address's route has $(route_cc 10.79.0.0/24)"; }
assert_eq bbr "$(cc_of 10.79.0.2)" "a connection over the reloaded address"

# bond0 down and up: the kernel drops and re-adds its routes, bbr comes back.
ip link set bond0 down
ip link set bond0 up
wait_until 3 cc_is 10.77.0.0/24 bbr || { show_log; fail "after down/up the route has $(route_cc 10.77.0.0/24)"; }

# A restart: nothing written, no link event (counters), routes kept.
wait_until 5 mii_up e2 || fail "e2 not up"
before=$(counters bond0)
kill -KILL "$BONDD_PID"
wait "$BONDD_PID" 2>/dev/null || true
BONDD_PID=
: >"$BONDD_LOG"
start_bondd "$WORK/bondd.conf"
wait_until 1 false || true
assert_eq 0 "$(log_count "apply:")" "kernel writes after a restart"
assert_eq "$before" "$(counters bond0)" "ifindex and counters across the restart"
assert_eq bbr "$(route_cc 10.77.0.0/24)" "after a restart"

# The key removed: the kernel's default comes back on both routes.
sed -i '/^tcp_congestion/d' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 cc_is 10.77.0.0/24 "" || { show_log; fail "route still has $(route_cc 10.77.0.0/24)"; }
wait_until 3 cc_is 10.79.0.0/24 "" || fail "route still has $(route_cc 10.79.0.0/24)"
assert_eq "$default" "$(cc_of 10.77.0.2)" "a connection after the key was removed"
# ... and the routes are still the addresses' own: deleting an address
# (after taking it out of the config) takes its route with it.
sed -i '/^address = 10.79.0.1/d' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 2 10 || fail "no reload after the restart"
ip addr del 10.79.0.1/24 dev bond0
assert_eq no-route "$(route_cc 10.79.0.0/24)" "the route left with its address"
echo "bbr on bond0's subnets, $default elsewhere; restored on removal"
