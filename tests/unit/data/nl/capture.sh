# SPDX-License-Identifier: MIT
# How the messages in this directory were recorded: in the sandbox guest
# (Linux 6.1.176 UML, iproute2 6.1), run as a scenario, e.g. copied to
# tests/sandbox/scenarios/199-capture.sh with CAPTURE_OUT=/var/tmp/nl.
# priv/ is root's view; unpriv/ a process in its own user namespace, which
# the kernel does not tell ad_actor_sys_prio, ad_user_port_key and
# ad_actor_system (drivers/net/bonding/bond_netlink.c bond_fill_info).
# Files: link-FAMILY-NAME.bin (RTM_NEWLINK; family 7 = AF_BRIDGE),
# addr-FAMILY-IFINDEX-N.bin (RTM_NEWADDR), unpriv-*.bin; one message each,
# header included, byte for byte.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
CAP=${NL_CAPTURE:-$BUILD_DIR/tests/sandbox/nl-capture}
OUT=${CAPTURE_OUT:?where to write the messages, outside the guest's /tmp}
rm -rf "$OUT"; mkdir -p "$OUT/priv" "$OUT/unpriv"
nics 8
ip -batch - <<'B'
link add bond0 mtu 9000 type bond mode 802.3ad miimon 100 lacp_rate fast ad_user_port_key 7 ad_actor_sys_prio 100 ad_actor_system 02:00:00:00:00:07 xmit_hash_policy layer3+4 min_links 1
link set e1 master bond0
link set e2 master bond0
link set bond0 up
address add 10.77.0.1/24 dev bond0
address add 2001:db8::1/64 dev bond0 nodad
link add bond1 type bond mode active-backup miimon 200 updelay 400 downdelay 200 primary_reselect better fail_over_mac active num_grat_arp 3
link set e3 master bond1
link set e4 master bond1
link set bond1 type bond primary e4
link set bond1 up
link add bond2 type bond mode balance-xor arp_interval 100 arp_ip_target 192.0.2.1,192.0.2.2 arp_all_targets all arp_missed_max 5
link set e5 master bond2
link add bond3 type bond mode balance-rr packets_per_slave 3 resend_igmp 2
link set e6 master bond3
link add br0 type bridge
link set bond3 master br0
link set br0 up
link set bond3 up
B
ip link set e4 type bond_slave queue_id 2 || true
nap 1
ip -d link show bond0
ip -d link show e4
"$CAP" "$OUT/priv" link 0
"$CAP" "$OUT/priv" link 7
"$CAP" "$OUT/priv" addr
unshare --user --map-root-user "$CAP" "$OUT/unpriv" link 0
ls -la "$OUT/priv" "$OUT/unpriv"
