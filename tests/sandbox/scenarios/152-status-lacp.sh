# SPDX-License-Identifier: MIT
# 802.3ad health from LACP, with a real partner: a bond in the peer
# namespace speaks LACP with ours.  All three slaves in the active
# aggregator and in sync: healthy.  One slave's cable moved to another
# partner (a second bond there): that slave lands in an aggregator of its
# own, carries nothing, and bondd says degraded with the reason; JSON and
# Prometheus carry the aggregator ids and the port states.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
ip -n "$PEER" -batch - <<'BATCH'
link add pb type bond mode 802.3ad lacp_rate fast miimon 100
link set p1 down
link set p2 down
link set p3 down
link set p1 master pb
link set p2 master pb
link set p3 master pb
link set pb up
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[lag0]
mode = 802.3ad
lacp_rate = fast
miimon = 100
mtu = 1500
slaves = e1 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
whole lag0 e1,e2,e3 1500 >/dev/null

rc=0
healthy() { rc=0; status --brief >/dev/null || rc=$?; ((rc == 0)); }
wait_until 30 healthy || { status --brief || true; cat /proc/net/bonding/lag0; fail "lag0 not healthy with its partner (exit $rc)"; }
echo "with the partner: $(status --brief)"
status --json >"$WORK/healthy.json"

# e3's cable to another switch: p3 leaves pb for a bond of its own.
t0=${EPOCHREALTIME//[!0-9]/}
ip -n "$PEER" -batch - <<'BATCH'
link add pb2 type bond mode 802.3ad lacp_rate fast miimon 100
link set p3 down
link set p3 nomaster
link set p3 master pb2
link set pb2 up
BATCH
# (First e3's MII goes down with p3; then LACP puts it elsewhere.)
degraded() {
	rc=0
	status --brief >"$WORK/brief" || rc=$?
	((rc == 1)) && file_has "$WORK/brief" "e3 is in aggregator"
}
wait_until 30 degraded || { cat "$WORK/brief"; cat /proc/net/bonding/lag0; fail "lag0 not degraded with e3 in another aggregator (exit $rc)"; }
t1=${EPOCHREALTIME//[!0-9]/}
echo "e3 moved: $(cat "$WORK/brief")"
echo "measured: degraded reported $(((t1 - t0) / 1000)) ms after the move"

status --json >"$WORK/degraded.json" || [[ $? == 1 ]]
status --prometheus >"$WORK/degraded.prom" || [[ $? == 1 ]]
python3 - "$WORK" <<'PY' || fail "the LACP fields"
import json, sys
work = sys.argv[1]
def bond(path):
    return json.load(open(path))["bonds"][0]
h = bond(f"{work}/healthy.json")
assert h["health"] == "healthy" and h["ad_aggregator_id"] is not None, h
for s in h["slave_status"]:
    assert s["ad_aggregator_id"] == h["ad_aggregator_id"], s
    assert s["ad_partner_port_state"] & 0x08, s   # partner in sync
    assert s["ad_actor_port_state"] & 0x30 == 0x30, s  # collecting, distributing
d = bond(f"{work}/degraded.json")
assert d["health"] == "degraded", d["health"]
e1, e3 = d["slave_status"][0], d["slave_status"][2]
assert e1["ad_aggregator_id"] == d["ad_aggregator_id"], (e1, d["ad_aggregator_id"])
assert e3["ad_aggregator_id"] != d["ad_aggregator_id"], (e3, d["ad_aggregator_id"])
assert e3["lacp_problem"] and "e3 is in aggregator" in e3["lacp_problem"], e3
assert e1["lacp_problem"] is None, e1
print(f"active aggregator {d['ad_aggregator_id']}; e3 in {e3['ad_aggregator_id']}: {e3['lacp_problem']}")
prom = open(f"{work}/degraded.prom").read()
assert 'bondd_slave_ad_in_active_aggregator{master="lag0",device="e3"} 0\n' in prom
assert 'bondd_slave_ad_in_active_aggregator{master="lag0",device="e1"} 1\n' in prom
assert f'bondd_bond_ad_aggregator_id{{master="lag0",device="lag0"}} {d["ad_aggregator_id"]}\n' in prom
assert 'bondd_bond_health{master="lag0",device="lag0"} 1\n' in prom
PY
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/degraded.json" "$samples/152-lacp.json"
cp "$WORK/degraded.prom" "$samples/152-lacp.prom"

# Back on the first partner: healthy again.
ip -n "$PEER" -batch - <<'BATCH'
link set p3 down
link set p3 nomaster
link set p3 master pb
BATCH
wait_until 30 healthy || { status --brief || true; fail "lag0 not healthy again (exit $rc)"; }
echo "e3 back: $(status --brief)"
