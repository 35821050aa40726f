# SPDX-License-Identifier: MIT
# A failure in one thing never delays the repair of another: the bond's
# configured IPv6 address cannot be added because the same address is on it
# with another prefix length (the kernel refuses a second one:
# net/ipv6/addrconf.c ipv6_add_addr_hash, EEXIST), so bondd retries the
# address with backoff.  Meanwhile a slave re-created must still be put back
# within 1 s, whenever it comes in the backoff.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
echo "address = fd00:77::1/64" >>"$WORK/bondd.conf"
# bond0 as an admin left it: the address with /48, which bondd adopts.
ip -batch - <<'BATCH'
link add bond0 type bond mode balance-rr miimon 100
link set bond0 mtu 9000
addr add fd00:77::1/48 dev bond0 nodad
BATCH
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
# Late in the backoff: holds of 1.6 s and more.
wait_log "retrying in 1600 ms" 1 20 ||
	{ show_log; kill -0 "$BONDD_PID" || echo "bondd is gone"; fail "the refused address was not retried with backoff"; }
# The kernel's own words vary: 6.1 says "File exists", 6.12 and later add
# their extack ("File exists: ipv6: address already assigned").
file_has "$BONDD_LOG" "refused by the kernel: File exists" &&
	file_has "$BONDD_LOG" " (an IPv6 address is on a link once, with one prefix length" ||
	{ show_log; fail "the refusal and its likely cause did not reach the log"; }

worst=0
for round in 1 2 3; do
	ip link del e2
	whole bond0 e1,e3,e4 9000 >/dev/null
	watch_start bond0 e1,e2,e3,e4 9000 --after-new e2
	ip link add e2 type veth peer name p2 netns "$PEER"
	ip -n "$PEER" link set p2 up
	watch_end
	echo "measured: round $round: bond0 whole ${REPAIR_MS} ms after the new e2 appeared, its address still refused"
	ms=${REPAIR_MS%.*}
	((ms > worst)) && worst=$ms
done
((worst <= 2000)) || { show_log; fail "a re-created slave waited $worst ms behind the refused address"; }
# Health does not call bond0 healthy while its address is refused (once
# the new e2's carrier is up, that is the reason left).
refusal_shown() {
	local rc=0
	status --brief bond0 >"$WORK/brief" || rc=$?
	((rc == 1)) && file_has "$WORK/brief" "address fd00:77::1/64 refused by the kernel"
}
wait_until 10 refusal_shown || { cat "$WORK/brief"; show_log; fail "health does not show the refused address"; }
echo "measured: $(cat "$WORK/brief")"
# The address is still retried, and the admin's /48 left alone.
addrs=$(ip -o addr show dev bond0)
[[ $addrs == *" fd00:77::1/48 "* ]] || { echo "$addrs"; show_log; fail "the admin's address was removed"; }
n=$(log_count "address fd00:77::1/64 refused by the kernel")
wait_log "address fd00:77::1/64 refused by the kernel" $((n + 1)) 40 || { show_log; fail "the address is no longer retried"; }
