# SPDX-License-Identifier: MIT
# Interface names need not be UTF-8 (dev_valid_name takes any byte but '/',
# ':', NUL and white space).  A bond and slaves named with bytes that are
# not UTF-8: every output still parses - JSON with Python's strict decoder
# and jq, --watch --json line by line, Prometheus with promtool (on the
# saved samples, by tests/check-status-outputs) - and the
# names come back byte for byte (JSON's \udcXX escapes are Python's
# surrogateescape: os.fsencode restores them).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

bond=$'b\xff\xfe'
s1=$'e\xc3(1'        # a lead byte without its continuation
s2=$'e\xe2\x82\xac2' # the euro sign: valid UTF-8, kept as it is
[ -n "${PEER:-}" ] || PEER=$(peer_ns peer)
ip link add "$s1" type veth peer name p1 netns "$PEER"
ip link add "$s2" type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p1 up
ip -n "$PEER" link set p2 up
printf '[%s]\nmode = active-backup\nmiimon = 100\nslaves = %s %s\n' "$bond" "$s1" "$s2" >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole "$bond" "$s1,$s2" 9000 >/dev/null
healthy() { status --brief >/dev/null; }
wait_until 15 healthy || { status --brief || true; fail "the bond did not become healthy"; }

status --watch --json >"$WORK/watch.jsonl" &
watcher=$!
wait_log "is watching events" 1 5 || fail "the watcher did not connect"
ip link set "$s1" mtu 1500 # drift, repaired: events naming the bond and the slave
whole "$bond" "$s1,$s2" 9000 >/dev/null
wait_until 5 file_has "$WORK/watch.jsonl" '"repair"' || fail "no repair event"
kill "$watcher"
wait "$watcher" 2>/dev/null || true

status --json >"$WORK/status.json"
status --prometheus >"$WORK/metrics.prom"
python3 - "$WORK" "$bond" "$s1" "$s2" <<'PY' || fail "an output does not parse"
import json, os, sys
work = sys.argv[1]
bond, s1, s2 = (os.fsencode(a) for a in sys.argv[2:5])
doc = json.loads(open(f"{work}/status.json", "rb").read().decode("utf-8"))  # strict
b = doc["bonds"][0]
assert os.fsencode(b["name"]) == bond, b["name"]
assert [os.fsencode(s["name"]) for s in b["slave_status"]] == [s1, s2]
assert os.fsencode(b["active_slave"]) in (s1, s2), b["active_slave"]
assert b["slave_status"][1]["name"] == "e\u20ac2"
events = [json.loads(l) for l in open(f"{work}/watch.jsonl", "rb").read().decode("utf-8").splitlines()]
assert any(os.fsencode(e["bond"]) == bond and e["link"] and os.fsencode(e["link"]) == s1 for e in events), events
open(f"{work}/metrics.prom", "rb").read().decode("utf-8")  # strict
print("JSON, watch lines and metrics are UTF-8; names round-trip:", b["name"].encode("utf-8", "backslashreplace"))
PY
jq -e '.bonds[0].slave_status | length == 2' "$WORK/status.json" >/dev/null || fail "jq"
grep -F 'bondd_bond_health{master="b\\xff\\xfe",device="b\\xff\\xfe"} 0' "$WORK/metrics.prom" ||
	fail "the bond's label"
# promtool (Go) does not run in the UML guest: tests/check-status-outputs
# runs it on the host, on these samples (scripts/test).
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/status.json" "$samples/153-non-utf8.json"
cp "$WORK/watch.jsonl" "$samples/153-non-utf8-watch.jsonl"
cp "$WORK/metrics.prom" "$samples/153-non-utf8.prom"
