# SPDX-License-Identifier: MIT
# How tests/unit/data/kernel-<version>/ were recorded: on each sandbox kernel,
# run as a scenario, e.g.
#   cp tests/unit/data/capture-kernel.sh tests/sandbox/scenarios/199-capture.sh
#   BONDD_KERNEL=6.12 BONDD_SCENARIOS=199-* \
#     meson test -C build/plain --suite sandbox-6.12
# The guest starts with an empty environment: the files go to
# BUILD_DIR/kernel-capture/<version>/.
# For each kernel: an 802.3ad bond with an LACP partner (bond0), one
# without slaves (bond1, no aggregator), one whose slave has no partner (bond2), as /proc/net/bonding/ shows them to root and to
# uid 65534 without capabilities (the privilege filter's fixtures), and
# the RTM_NEWLINK messages of every link (nl-capture), root's
# view, with coupled_control, broadcast_neighbor and actor_port_prio set
# where the kernel has them.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
CAP=$BUILD_DIR/tests/sandbox/nl-capture
OUT=$BUILD_DIR/kernel-capture/$(uname -r)
rm -rf "$OUT"
mkdir -p "$OUT/nl"
PEER=$(peer_ns peer)
peer=$PEER
veth_pair v0 p0 "$peer"
veth_pair v1 p1 "$peer"
ip -batch - <<'B'
link add bond0 type bond mode 802.3ad miimon 100
link set v0 down
link set v1 down
link set v0 master bond0
link set v1 master bond0
link add bond1 type bond mode 802.3ad miimon 100
link set bond1 up
link add bond2 type bond mode 802.3ad miimon 100
B
nics 1 5
ip link set e5 down
ip link set e5 master bond2
ip link set bond2 up
ip -n "$peer" -batch - <<'B'
link add pad type bond mode 802.3ad miimon 100
link set p0 down
link set p1 down
link set p0 master pad
link set p1 master pad
link set pad up
B
# Options of later kernels, each where this kernel takes it (no iproute2
# of the host knows their names: nl-capture sets them).
# coupled_control only while the bond is down (bond_options.c: BOND_OPTFLAG_IFDOWN)
"$BUILD_DIR/tests/sandbox/nl-bondopt" set bond0 coupled_control 0 2>&1 || echo "no coupled_control on $(uname -r)"
ip link set bond0 up
"$BUILD_DIR/tests/sandbox/nl-bondopt" set bond0 broadcast_neighbor 1 2>&1 || echo "no broadcast_neighbor on $(uname -r)"
"$BUILD_DIR/tests/sandbox/nl-bondopt" set v1 actor_port_prio 200 2>&1 || echo "no actor_port_prio on $(uname -r)"
agg() { read_file /proc/net/bonding/bond0 PROC && [[ $PROC == *"Number of ports: 2"* ]]; }
wait_until 30 agg || { cat /proc/net/bonding/bond0; fail "no aggregator of two ports"; }
nap 1
cat /proc/net/bonding/bond0 >"$OUT/8023ad-root.txt"
as_nobody cat /proc/net/bonding/bond0 >"$OUT/8023ad-nobody.txt"
cat /proc/net/bonding/bond1 >"$OUT/8023ad-noagg-root.txt"
as_nobody cat /proc/net/bonding/bond1 >"$OUT/8023ad-noagg-nobody.txt"
cat /proc/net/bonding/bond2 >"$OUT/8023ad-nopartner-root.txt"
as_nobody cat /proc/net/bonding/bond2 >"$OUT/8023ad-nopartner-nobody.txt"
"$BUILD_DIR/tests/sandbox/nl-bondopt" get bond0
"$BUILD_DIR/tests/sandbox/nl-bondopt" get v1
"$CAP" "$OUT/nl" link 0
ip -d link show bond0
ls -la "$OUT" "$OUT/nl"
