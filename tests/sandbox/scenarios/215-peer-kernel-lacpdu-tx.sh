# SPDX-License-Identifier: MIT
# The kernel's bonding selftest bond-break-lacpdu-tx.sh (upstream
# tools/testing/selftests/drivers/net/bonding/; Red Hat bug 2020773),
# rebuilt on bondd: LACPDUs still go out after the bond's MAC address is
# set.  fbond is made by bondd from "mode 4 miimon 200 xmit_hash_policy 1
# ad_actor_sys_prio 65535 lacp_rate fast" with mac_address
# 52:54:00:3B:7C:A6 (upstream sets it with "ip link set fbond address"),
# a port of the bridge fab-br0 (made by hand, as upstream; bondd leaves a
# bond's master alone), ports veth1-bond and veth2-bond.  Upstream's
# assertion: frames of EtherType 0x8809 are captured on veth1-end (upstream
# runs tcpdump for 15 s; here a packet socket for 4 s: lacp_rate fast sends
# one a second).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/peer-lib.sh"
PEER_BONDS=fbond

ip link add fab-br0 address 52:54:00:3B:7C:A6 mtu 1500 type bridge forward_delay 15
ip link add name veth1-bond type veth peer name veth1-end
ip link add name veth2-bond type veth peer name veth2-end
ip link set veth1-end up
ip link set veth2-end up
cat >"$WORK/bondd.conf" <<CONF
[fbond]
mode = 4
miimon = 200
xmit_hash_policy = 1
ad_actor_sys_prio = 65535
lacp_rate = fast
mac_address = 52:54:00:3B:7C:A6
mtu = 1500
slaves = veth1-bond veth2-bond
CONF
start_bondd "$WORK/bondd.conf"
whole fbond veth1-bond,veth2-bond 1500 >/dev/null
ip link set fbond master fab-br0
ip link set fab-br0 up
ip addr add dev fab-br0 10.0.0.3
assert_eq 52:54:00:3b:7c:a6 "$(sysval /sys/class/net/fbond/address)" "fbond's address"
python3 "$FRAME_COUNT" veth1-end 4 lacpdu >"$WORK/lacp.out"
mapfile -t out <"$WORK/lacp.out"
num=${out[-1]:-}
[[ $num =~ ^[0-9]+$ ]] || fail "the counter said \"$num\""
((num > 0)) || { show_log; fail "no LACPDU captured on veth1-end"; }
echo "ok: captured $num LACPDUs on veth1-end after the bond's address was set"
