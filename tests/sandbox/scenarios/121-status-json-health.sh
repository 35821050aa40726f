# SPDX-License-Identifier: MIT
# Status socket: --json is valid JSON with the documented fields; the exit
# status goes 0 -> 1 when a slave's peer goes down and back to 0 when it
# returns, and the repair and carrier events show up in --watch and JSON.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
# A second bond whose only slave never appears: up, but no carrier.
printf '[bond1]\nslaves = ghost\n' >>"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
healthy() { status --brief bond0 >/dev/null; }
wait_until 10 healthy || { status --brief || true; fail "bond0 did not become healthy"; }
echo "brief: $(status --brief || true)"

status --watch >"$WORK/watch.log" 2>&1 &
watcher=$!
status --watch --json >"$WORK/watch.jsonl" 2>&1 &
json_watcher=$!
wait_log "is watching events" 2 5 || fail "the watchers did not connect"

rc=0
ip -n "$PEER" link set p3 down
degraded() { rc=0; status bond0 >/dev/null || rc=$?; ((rc == 1)); }
wait_until 10 degraded || fail "exit status $rc with e3's peer down, expected 1"
echo "peer down: $(status --brief || true)"
ip -n "$PEER" link set p3 up
wait_until 10 healthy || fail "exit status did not return to 0"

# A drift and its repair, for the event history.
ip link set e2 mtu 1500
whole_within 1000 bond0 e1,e2,e3,e4 9000 >/dev/null
wait_until 5 file_has "$WORK/watch.log" "repair bond0 e2" ||
	{ cat "$WORK/watch.log"; fail "--watch did not show the repair"; }
file_has "$WORK/watch.log" "down bond0 e3" || { cat "$WORK/watch.log"; fail "--watch did not show e3 down"; }
kill "$watcher" "$json_watcher"
wait "$watcher" "$json_watcher" 2>/dev/null || true
# One JSON object per line, with the events the text watcher saw.
python3 - "$WORK/watch.jsonl" <<'PY' || fail "--watch --json"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
assert any(e["kind"] == "repair" and e["bond"] == "bond0" and e["link"] == "e2" for e in events), events
assert any(e["kind"] == "down" and e["link"] == "e3" for e in events), events
print("watch --json:", len(events), "events, one object per line")
PY

status --json >"$WORK/status.json" || true # exit status 2: bond1
python3 - "$WORK/status.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
b = doc["bonds"][0]
assert [x["name"] for x in doc["bonds"]] == ["bond0", "bond1"]
def need(obj, *keys):
    for k in keys:
        assert k in obj, f"missing {k!r} in {sorted(obj)}"
need(b, "name", "health", "health_code", "configured", "observed", "slave_status",
     "actions", "errors", "last_error", "events", "slaves_up")
assert b["health"] == "healthy", b["health"]
assert b["configured"]["slaves"] == ["e1", "e2", "e3", "e4"]
assert b["observed"]["slaves"] == ["e1", "e2", "e3", "e4"]
assert b["configured"]["mtu"] == 9000 and b["observed"]["mtu"] == 9000
assert b["configured"]["options"]["mode"] == "balance-rr"
assert b["observed"]["options"]["miimon"] == 100
for i, s in enumerate(b["slave_status"], 1):
    need(s, "name", "position", "configured_position", "mii_status", "link_failure_count",
         "permanent_address", "speed_mbps", "duplex", "carrier_flaps", "last_flap",
         "rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "mtu")
    assert s["position"] == i and s["mii_status"] == "up", s
e3 = b["slave_status"][2]
assert e3["carrier_flaps"] == 1 and e3["last_flap"], e3
assert e3["link_failure_count"] >= 1, e3
kinds = {(e["kind"], e["link"]) for e in b["events"]}
assert ("drift", None) in kinds and ("repair", "e2") in kinds, kinds
assert ("down", "e3") in kinds and ("up", "e3") in kinds, kinds
print("json ok:", len(b["events"]), "events")
PY

status --prometheus >"$WORK/metrics" || true
grep -q '^bondd_bond_health{master="bond0",device="bond0"} 0$' "$WORK/metrics" || fail "no health metric"
grep -q '^bondd_bond_health{master="bond1",device="bond1"} 2$' "$WORK/metrics" || fail "no health metric for bond1"
grep -q '^bondd_slave_carrier_flaps_total{master="bond0",device="e3"} 1$' "$WORK/metrics" ||
	{ cat "$WORK/metrics"; fail "no flap counter"; }
# The kernel's own carrier counter of e3 (two changes: down, up; and more
# from its creation), next to bondd's count.
grep -qE '^bondd_slave_carrier_changes_total\{master="bond0",device="e3"\} [1-9][0-9]*$' "$WORK/metrics" ||
	{ cat "$WORK/metrics"; fail "no kernel carrier counter"; }
grep -q '^bondd_build_info{version="' "$WORK/metrics" || fail "no build info"
grep -q '^bondd_config_last_reload_successful 1$' "$WORK/metrics" || fail "no reload result"

# Real output for the validators (tests/check-status-outputs, run by
# scripts/test): the JSON Schema, jq, promtool.
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/status.json" "$samples/121-status.json"
cp "$WORK/watch.jsonl" "$samples/121-watch.jsonl"
cp "$WORK/metrics" "$samples/121-metrics.prom"
as_nobody "$BONDD_STATUS" --socket "$SOCK" --json >"$samples/121-status-nobody.json" || true

# Unknown bond: 3.  A bond without carrier: 2, also for "all bonds".
rc=0; status nosuchbond 2>/dev/null || rc=$?
assert_eq 3 "$rc" "exit status for an unknown bond"
rc=0; status bond1 >/dev/null || rc=$?
assert_eq 2 "$rc" "exit status for a bond without carrier"
rc=0; status --brief >"$WORK/brief" || rc=$?
assert_eq 2 "$rc" "exit status for all bonds"
cat "$WORK/brief"
file_has "$WORK/brief" "bond1 down balance-rr mtu 9000 slaves 0/1 up" || fail "brief line for bond1"
