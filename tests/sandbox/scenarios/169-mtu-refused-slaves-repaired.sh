# SPDX-License-Identifier: MIT
# A failure in one thing never delays the repair of another: a reload
# raises the bond's MTU to 9000, which the kernel refuses because one
# slave, a VXLAN on a 1500-byte parent, cannot follow (its max MTU is the
# parent's less the VXLAN headroom: drivers/net/vxlan/vxlan_core.c
# vxlan_change_mtu, and the bond undoes the change:
# drivers/net/bonding/bond_main.c bond_change_mtu).  bondd retries the MTU
# with backoff; meanwhile a slave deleted and created again must be put
# back within 1 s, at the bond's current MTU.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
ip -batch - <<'BATCH' || skip "no vxlan in this kernel"
link add parent0 type dummy
link set parent0 mtu 1500
link set parent0 up
link add v9 type vxlan id 9 dev parent0 dstport 4789
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mtu = 1400
slaves = e1 v9 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,v9,e2 1400 >/dev/null
sed -i 's/^mtu = 1400/mtu = 9000/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "retrying in 800 ms" 1 20 || { show_log; fail "the refused MTU was not retried with backoff"; }
file_has "$BONDD_LOG" "MTU 9000 refused by the kernel" ||
	{ show_log; fail "the refused MTU is not named in the kernel's words"; }

worst=0
for round in 1 2 3; do
	ip link del e2
	whole bond0 e1,v9 1400 >/dev/null
	watch_start bond0 e1,v9,e2 1400 --after-new e2
	ip link add e2 type veth peer name p2 netns "$PEER"
	ip -n "$PEER" link set p2 up
	watch_end
	echo "measured: round $round: bond0 whole ${REPAIR_MS} ms after the new e2 appeared, its MTU still refused"
	ms=${REPAIR_MS%.*}
	((ms > worst)) && worst=$ms
done
((worst <= 1000)) || { show_log; fail "a re-created slave waited $worst ms behind the refused MTU"; }
# The slaves follow the bond: none was set to 9000 on its own.
for s in e1 e2; do
	assert_eq 1400 "$(sysval /sys/class/net/$s/mtu)" "$s mtu while the bond's MTU is refused"
done
# Health names the refusal while it lasts.
rc=0
status --brief bond0 >"$WORK/brief" || rc=$?
((rc == 1)) && file_has "$WORK/brief" "MTU 9000 refused by the kernel" ||
	{ cat "$WORK/brief"; show_log; fail "health does not name the refused MTU"; }
# Once the parent can carry it, the MTU goes through.
ip link set parent0 mtu 9100
whole bond0 e1,v9,e2 9000 --timeout 40 >/dev/null
