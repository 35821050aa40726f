# SPDX-License-Identifier: MIT
# mac_address: the bond is created with the configured MAC and keeps it
# through what would otherwise change it: a mode change (a rebuild
# releases every slave, and the kernel gives a bond without slaves a random
# MAC, then the first slave's at the next enslave), a restart (no write),
# every slave deleted and re-created, and a MAC set by hand (repaired).
# The slaves carry the bond's MAC as the kernel gives it to them.  A
# fail_over_mac that makes the MAC meaningless is refused with FILE:LINE.
# JSON and Prometheus show it.  Fails on the code before mac_address (the
# key was unknown; with the plan step left out, the rebuild and the
# re-created slaves leave the bond with e1's MAC).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

MAC=02:00:5e:10:00:01
mac_is() { [ "$(sysval "/sys/class/net/$1/address")" = "$2" ]; }

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
mac_address = $MAC
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
mac_is bond0 $MAC || fail "created with $(sysval /sys/class/net/bond0/address), not $MAC"
mac_is e1 $MAC || fail "e1 has $(sysval /sys/class/net/e1/address), not the bond's $MAC"

# A mode change: a rebuild at reload.
sed -i 's/mode = balance-rr/mode = active-backup/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
whole bond0 e1,e2 9000 >/dev/null
assert_eq "active-backup 1" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode"
log_has "rebuild" 1 || { show_log; fail "no rebuild logged"; }
wait_until 5 mac_is bond0 $MAC ||
	{ show_log; fail "after the rebuild bond0 has $(sysval /sys/class/net/bond0/address)"; }

# A restart: nothing to write.
kill -KILL "$BONDD_PID"
wait "$BONDD_PID" 2>/dev/null || true
BONDD_PID=
: >"$BONDD_LOG"
start_bondd "$WORK/bondd.conf"
wait_until 1 false || true
assert_eq 0 "$(log_count "apply:")" "kernel writes after a restart"
mac_is bond0 $MAC || fail "after the restart bond0 has $(sysval /sys/class/net/bond0/address)"

# Every slave deleted (a driver reload), then back.
ip link del e1
ip link del e2
wait_until 5 bash -c '! grep -q . /sys/class/net/bond0/bonding/slaves' || fail "slaves still in"
ip link add e1 type veth peer name p1 netns "$PEER"
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p1 up
ip -n "$PEER" link set p2 up
whole bond0 e1,e2 9000 >/dev/null
wait_until 5 mac_is bond0 $MAC ||
	{ show_log; fail "with the slaves re-created bond0 has $(sysval /sys/class/net/bond0/address)"; }

# By hand: repaired like any drift.
ip link set bond0 address 02:00:00:00:00:99
wait_until 5 mac_is bond0 $MAC ||
	{ show_log; fail "the MAC set by hand stayed: $(sysval /sys/class/net/bond0/address)"; }
# bondd logs "apply:" once the kernel has answered the write (daemon.c
# apply), a moment after the MAC above could be read: waited for.
wait_log "address $MAC (mac)" 1 5 || { show_log; fail "the repair was not logged"; }

samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
status --json >"$samples/198-mac-address.json" || fail "bondd-status --json: exit $?"
status --prometheus >"$samples/198-mac-address.prom" || true
file_has "$samples/198-mac-address.json" "\"configured\":{\"mtu\":9000,\"mac_address\":\"$MAC\"" ||
	fail "JSON lacks the configured MAC"
file_has "$samples/198-mac-address.json" "\"observed\":{\"mtu\":9000,\"mac_address\":\"$MAC\"" ||
	fail "JSON lacks the observed MAC"
file_has "$samples/198-mac-address.prom" 'bondd_bond_mac_address_kept{master="bond0",device="bond0"} 1' ||
	fail "Prometheus lacks bondd_bond_mac_address_kept 1"

# fail_over_mac = active in active-backup: refused, naming the line.
cat >"$WORK/fom.conf" <<CONF
[bond0]
mode = active-backup
miimon = 100
fail_over_mac = active
mac_address = $MAC
slaves = e1 e2
CONF
out=$("$BONDD" --check --config "$WORK/fom.conf" 2>&1) && fail "--check passed: $out"
[[ $out == *"fom.conf:5: mac_address cannot be kept with fail_over_mac = active (line 4)"* ]] ||
	fail "--check did not name FILE:LINE: $out"
echo "measured: bond0 kept $MAC through a rebuild, a restart, re-created slaves and a hand change"
