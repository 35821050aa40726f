# SPDX-License-Identifier: MIT
# bondd-status --explain, as a person sees it: two hosts (node-a, node-b,
# each its own host name in its own UTS namespace) of four slaves, b's
# switch ports 2 and 3 crossed (a's e2 meets b's e3 and a's e3 meets b's
# e2) and a's switch port 3 announcing (LLDP) a maximum frame of 1522
# bytes, below the bond's MTU 9000.  On node-a, --explain fits 40 lines of
# 80 columns; it names the health and why as the JSON's "problem", each
# finding with its evidence and fix in the JSON's words, every slave with
# its switch port, and the link check's grid with node-b by name (as the
# JSON's host_name and the --link-check table do); its exit status is
# --brief's.  The default output is still /proc/net/bonding/bond0 byte for
# byte, and --link-check, piped, writes nothing on stderr.  Fails on the
# code before --explain (unknown option) and before host names in frames
# (node-b shown as a hex id).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
command -v unshare >/dev/null || skip "no unshare(1) for the hosts' own host names"
declare -A NS
for h in a b; do
	NS[$h]=$(peer_ns "$h")
	lc_host "$SW" "${NS[$h]}" "$h"
done
lc_conf "$WORK/host.conf"
lc_vlan "$SW" b2 23 b3 22
trap lc_stop EXIT
# Each host in its own UTS namespace, named node-a and node-b.
for h in a b; do
	: >"$WORK/$h.log"
	ip netns exec "${NS[$h]}" unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' sh \
		"node-$h.example" "$BONDD" --config "$WORK/host.conf" --socket "$WORK/$h.sock" \
		--debug >>"$WORK/$h.log" 2>&1 &
	PID[$h]=$!
done
for h in a b; do
	wait_until 10 file_has "$WORK/$h.log" "link check done" ||
		{ lc_show_logs a b; fail "host $h made no link check at start"; }
done
# a's switch port 3 takes 1522-byte frames (LLDP, from the switch's side).
ip netns exec "$SW" python3 "$LIB_DIR/lldp-send.py" --twice good a3 02:00:00:00:5c:01 leaf1 Ethernet1/3 '' 23 1522 120
for i in 1 2 4; do
	ip netns exec "$SW" python3 "$LIB_DIR/lldp-send.py" --twice good "a$i" 02:00:00:00:5c:01 leaf1 "Ethernet1/$i" '' $((20 + i)) 9216 120
done

A=("$BONDD_STATUS" --socket "$WORK/a.sock")
rc=0
"${A[@]}" --link-check >"$WORK/table" 2>"$WORK/table.err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$WORK/table"; lc_show_logs a b; fail "--link-check on a: exit $rc, expected 1 (crossed)"; }
[ -s "$WORK/table.err" ] && fail "--link-check piped wrote on stderr: $(cat "$WORK/table.err")"
file_has "$WORK/table" " node-b bond0 e3@3 " || { cat "$WORK/table"; fail "the --link-check table does not name node-b"; }
two() { "${A[@]}" --json >"$WORK/a.json" || true; [[ $(<"$WORK/a.json") == *'"switch-max-frame"'* && $(<"$WORK/a.json") == *'"crossed"'* ]]; }
wait_until 10 two || { cat "$WORK/a.json"; fail "a's findings lack crossed or switch-max-frame"; }

rc=0
"${A[@]}" --explain >"$WORK/explain" 2>&1 || rc=$?
brief_rc=0
"${A[@]}" --brief >/dev/null || brief_rc=$?
"${A[@]}" --json >"$WORK/a.json" || true
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/explain" "$samples/189d-explain.txt"
cp "$WORK/a.json" "$samples/189d-link-check-named.json"
echo "--- bondd-status --explain on node-a ---"
cat "$WORK/explain"
[ "$rc" -eq 1 ] && [ "$brief_rc" -eq 1 ] || fail "--explain exit $rc, --brief exit $brief_rc: both 1 expected"

# The screen against the JSON: python reads both.
python3 - "$WORK/explain" "$WORK/a.json" <<'PY' || fail "--explain does not match the JSON"
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
b = d["bonds"][0]
lines = text.split("\n")[:-1]
assert len(lines) <= 40, f"{len(lines)} lines"
wide = [l for l in lines if len(l) > 80]
assert not wide, f"lines over 80 columns: {wide}"
flat = re.sub(r"\s+", " ", text)
assert flat.startswith(f"bond0: degraded: {b['problem']} "), (b["problem"], flat[:200])
kinds = []
for f in b["findings"]:
    kinds.append(f["kind"])
    head = f"  {f['kind']} ({f['severity']}, {f['source']}"
    assert head in text, head
    whole = f"evidence: {f['evidence']} fix: {f['fix']}"
    assert re.sub(r"\s+", " ", whole) in flat, whole
assert "crossed" in kinds and "switch-max-frame" in kinds, kinds
assert f"findings ({len(b['findings'])}):" in text
for s in b["slave_status"]:
    row = [l for l in lines if l.startswith(f"  {s['position']:<3} {s['name']} ")]
    assert len(row) == 1, (s["name"], row)
    cols = row[0].split()
    assert cols[2] == s["mii_status"], (cols, s["mii_status"])
    assert int(cols[4]) == s["mtu"], cols
    assert int(cols[7]) == s["link_failure_count"], cols
    port = s["lldp"]["neighbour"]["port_id"]
    assert row[0].endswith(f"leaf1 {port}"), row[0]
# the grid: node-b by name, its e3 under our e2 and its e2 under our e3
peers = {p["host_name"] for s in b["link_check"]["slaves"] for p in s["peers"]}
assert peers == {"node-b"}, peers
grid = lines.index(next(l for l in lines if l.startswith("  node-b ")))
assert lines[grid].split() == ["node-b", "e1@1", "e2@2", "e3@3", "e4@4"], lines[grid]
want = {"1 e1": "128,1500,9000 - - -", "2 e2": "- - 128,1500,9000 -",
        "3 e3": "- 128,1500,9000 - -", "4 e4": "- - - 128,1500,9000"}
for i, (row, cells) in enumerate(want.items(), 1):
    line = lines[grid + i]
    assert line.startswith("  " + row) and line[18:].split() == cells.split(), (line, cells)
PY

# The default output is still the kernel's text, byte for byte.
ip netns exec "${NS[a]}" cat /proc/net/bonding/bond0 >"$WORK/proc"
"${A[@]}" >"$WORK/default" || true
cmp -s "$WORK/proc" "$WORK/default" || fail "the default output is not /proc/net/bonding/bond0"
echo "measured: --explain on node-a: $(wc -l <"$WORK/explain") lines, widest $(awk '{ if (length > w) w = length } END { print w }' "$WORK/explain") columns"
