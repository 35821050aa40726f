# SPDX-License-Identifier: MIT
# LLDP neighbours per slave.  The switch's namespace ($PEER, ports p1-p3)
# sends LLDPDUs of the project's own (tests/sandbox/lldp-send.py) on each
# port: one switch (sw-a), ports swp1-swp3, swp2 announcing a 1518-byte
# maximum frame while bond0 is MTU 9000.  JSON, text (--neighbours) and
# Prometheus name each slave's switch and port; the bond is degraded naming
# e2 and 1518.  Malformed LLDPDUs and a flood change nothing but a counter
# (malformed, rate_limited).  swp3's TTL of 15 s passes: e3's neighbour is
# gone from every output.  A new frame from swp2 announcing 9216 clears the
# finding.  Fails on the code before LLDP reception (no "lldp" member).
# The flood is read at 32 frames a second; the kernel drops the rest
# (counted as dropped).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
# The switch's ports take jumbo frames (what they announce is the test's).
ip -n "$PEER" -batch - <<<$'link set p1 mtu 9000\nlink set p2 mtu 9000\nlink set p3 mtu 9000'
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
link_check = no
slaves = e1 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
wait_until 10 mii_up e3 || fail "slaves not up"

json_field() { # json_field FILE PYTHON-EXPRESSION-OF-d
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
lldp_of() { echo "[s for s in d[\"bonds\"][0][\"slave_status\"] if s[\"name\"]==\"$1\"][0][\"lldp\"]"; }
SEND=(ip netns exec "$PEER" python3 "$LIB_DIR/lldp-send.py")
CHASSIS=02:00:00:00:5a:01

status --json >"$WORK/t0.json" || fail "bondd-status --json at the start: exit $?"
assert_eq "None" "$(json_field "$WORK/t0.json" "$(lldp_of e1)[\"neighbour\"]")" "e1's neighbour before any LLDP"

# A port description with a quote and a backslash: escaped in every output.
# Each port announces twice, 1.2 s apart: a verdict rests on frames that
# agree over a second (lldp_eval.h); the three ports at once.
senders=()
"${SEND[@]}" --twice good p1 $CHASSIS sw-a swp1 'rack "3" \ port 1' 10 9216 120 & senders+=($!)
"${SEND[@]}" --twice good p2 $CHASSIS sw-a swp2 'rack 3 port 2' 20 1518 120 & senders+=($!)
sent3=${EPOCHREALTIME//[!0-9]/}
"${SEND[@]}" --twice good p3 $CHASSIS sw-a swp3 'rack 3 port 3' 30 9216 15 & senders+=($!)
wait "${senders[@]}" # not bare wait: bondd is a child too

heard_all() {
	status --json >"$WORK/t1.json"
	[[ $(json_field "$WORK/t1.json" "sum(1 for s in d['bonds'][0]['slave_status'] if s['lldp'] and s['lldp']['neighbour'])") == 3 ]]
}
wait_until 10 heard_all || { cat "$WORK/t1.json"; fail "three neighbours not heard"; }
degraded() { ! status --json >"$WORK/t1.json"; }
wait_until 5 degraded || fail "bond0 healthy with swp2 at 1518 bytes (confirmed): exit 0"
# The text first: e3's TTL (15 s) runs, and a loaded guest spawns slowly.
# Each record names its source: the frame's Ethernet source, the switch
# port's own address here (one process for the three: spawning is slow).
macs=$(ip netns exec "$PEER" cat /sys/class/net/p1/address /sys/class/net/p2/address /sys/class/net/p3/address)
read -r -d '' P1MAC P2MAC P3MAC <<<"$macs" || true
status --neighbours >"$WORK/t1.txt" && fail "--neighbours exits 0 on a degraded bond"
cat "$WORK/t1.txt"
file_has "$WORK/t1.txt" "bond0 e1: switch sw-a (chassis $CHASSIS) port swp1 \"rack \"3\" \\x5c port 1\" pvid 10 max-frame 9216, heard" ||
	fail "text lacks e1's neighbour"
grep -q "^bond0 e1: switch .* heard [0-9]* s ago from $P1MAC, expires in [0-9]* s (frames 2," "$WORK/t1.txt" ||
	fail "text lacks e1's neighbour"
file_has "$WORK/t1.txt" "bond0 e2: switch sw-a (chassis $CHASSIS) port swp2 \"rack 3 port 2\" pvid 20 max-frame 1518, heard" ||
	fail "text lacks e2's neighbour"
file_has "$WORK/t1.txt" "bond0 e3: switch sw-a (chassis $CHASSIS) port swp3" || fail "text lacks e3's neighbour"

for i in 1 2 3; do
	got=$(json_field "$WORK/t1.json" "(lambda n: (n['system_name'], n['chassis_id'], n['port_id'], n['port_vlan_id'], n['max_frame_size']))($(lldp_of e$i)['neighbour'])")
	want="('sw-a', '$CHASSIS', 'swp$i', ${i}0, $([ "$i" = 2 ] && echo 1518 || echo 9216))"
	assert_eq "$want" "$got" "e$i's neighbour in JSON"
done
assert_eq "['$P1MAC confirmed 2 1', '$P2MAC confirmed 2 1', '$P3MAC confirmed 2 1']" \
	"$(json_field "$WORK/t1.json" "[(lambda l: l['neighbour']['source_mac'] + ' ' + l['neighbour']['verdicts'] + ' ' + str(l['neighbour']['frames']) + ' ' + str(len(l['neighbours'])))(s['lldp']) for s in d['bonds'][0]['slave_status']]")" \
	"each neighbour's source, verdicts, frames and the speakers per slave"
# The parser writes a backslash as \x5c (lldp.h): no byte is ambiguous.
assert_eq 'rack "3" \x5c port 1' "$(json_field "$WORK/t1.json" "$(lldp_of e1)['neighbour']['port_description']")" "e1's port description"
problem=$(json_field "$WORK/t1.json" 'd["bonds"][0]["problem"]')
[[ $problem == "switch-max-frame: e2's switch port swp2 on sw-a takes frames of at most 1518 bytes, the bond's MTU 9000 needs 9018" ]] ||
	fail "the bond's problem is: $problem"
kinds=$(json_field "$WORK/t1.json" '[(f["source"], f["kind"], f["severity"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]')
assert_eq "[('lldp', 'switch-max-frame', 'degraded', ['e2'])]" "$kinds" "LLDP findings"
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/t1.json" "$samples/200-lldp.json"

status --prometheus >"$samples/200-lldp.prom" || true
file_has "$samples/200-lldp.prom" "bondd_slave_lldp_neighbour_info{master=\"bond0\",device=\"e1\",chassis_id=\"$CHASSIS\",system_name=\"sw-a\",port_id=\"swp1\",port_description=\"rack \\\"3\\\" \\\\x5c port 1\",port_vlan_id=\"10\",max_frame_size=\"9216\",source_mac=\"$P1MAC\"} 1" ||
	{ grep lldp "$samples/200-lldp.prom"; fail "Prometheus lacks e1's neighbour, escaped"; }
file_has "$samples/200-lldp.prom" "bondd_slave_lldp_neighbour_info{master=\"bond0\",device=\"e2\",chassis_id=\"$CHASSIS\",system_name=\"sw-a\",port_id=\"swp2\",port_description=\"rack 3 port 2\",port_vlan_id=\"20\",max_frame_size=\"1518\",source_mac=\"$P2MAC\"} 1" ||
	fail "Prometheus lacks e2's neighbour"
file_has "$samples/200-lldp.prom" 'bondd_bond_findings{master="bond0",device="bond0",kind="switch-max-frame",severity="degraded"} 1' ||
	fail "Prometheus lacks the switch-max-frame finding"

# Malformed LLDPDUs on p1: only e1's malformed counter moves.
but_malformed() { json_field "$1" "{k: v for k, v in $(lldp_of e1).items() if k != 'malformed'}"; }
before=$(but_malformed "$WORK/t1.json")
bad=$("${SEND[@]}" bad p1)
counted() {
	status --json >"$WORK/t2.json"
	[[ $(json_field "$WORK/t2.json" "$(lldp_of e1)['malformed']") == "$bad" ]]
}
wait_until 10 counted || fail "e1's malformed count is $(json_field "$WORK/t2.json" "$(lldp_of e1)['malformed']"), not $bad"
assert_eq "$before" "$(but_malformed "$WORK/t2.json")" "e1's LLDP record after $bad malformed frames"
assert_eq "$kinds" "$(json_field "$WORK/t2.json" '[(f["source"], f["kind"], f["severity"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]')" "findings after malformed frames"

# A flood of p1's LLDPDU: past the rate limit only a counter moves.
frames0=$(json_field "$WORK/t2.json" "$(lldp_of e1)['frames']")
t0=$(date +%s)
sent=$("${SEND[@]}" flood p1 3000 $CHASSIS sw-a swp1 'rack "3" \ port 1' 10 9216 120)
secs=$(($(date +%s) - t0 + 1))
status --json >"$WORK/t3.json" || true
frames1=$(json_field "$WORK/t3.json" "$(lldp_of e1)['frames']")
limited=$(json_field "$WORK/t3.json" "$(lldp_of e1)['rate_limited']")
echo "measured: flood of $sent LLDPDUs in about $secs s: $((frames1 - frames0)) taken, $limited rate-limited"
((frames1 - frames0 <= 8 + secs)) || fail "$((frames1 - frames0)) frames of the flood taken in $secs s (burst 8, 1 a second)"
((limited > 0)) || fail "no frame of the flood was rate-limited"
# Read at most 32 a second (lldp_eval.h LLDP_READS_PER_S): the kernel
# dropped the rest at the socket, counted once the socket is read again.
read1=$(json_field "$WORK/t3.json" "(lambda l: l['frames'] + l['malformed'] + l['rate_limited'])($(lldp_of e1))")
read0=$(json_field "$WORK/t2.json" "(lambda l: l['frames'] + l['malformed'] + l['rate_limited'])($(lldp_of e1))")
((read1 - read0 <= 32 * (secs + 1))) || fail "$((read1 - read0)) frames of the flood read in $secs s (32 a second)"
kdropped() { status --json >"$WORK/t3b.json"; (($(json_field "$WORK/t3b.json" "$(lldp_of e1)['dropped']") > 0)); }
wait_until 5 kdropped || fail "no frame of the flood counted as dropped"
echo "measured: flood of $sent LLDPDUs: $((read1 - read0)) read by bondd, $(json_field "$WORK/t3b.json" "$(lldp_of e1)['dropped']") dropped by the kernel"
assert_eq "$kinds" "$(json_field "$WORK/t3.json" '[(f["source"], f["kind"], f["severity"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]')" "findings after the flood"
assert_eq "swp1 9216" "$(json_field "$WORK/t3.json" "(lambda n: n['port_id'] + ' ' + str(n['max_frame_size']))($(lldp_of e1)['neighbour'])")" "e1's neighbour after the flood"

# swp3's TTL (15 s) passes: e3's neighbour goes from every output, no sooner.
gone3() {
	status --json >"$WORK/t4.json"
	[[ $(json_field "$WORK/t4.json" "$(lldp_of e3)['neighbour']") == None ]]
}
wait_until 30 gone3 || fail "e3's neighbour still there 30 s after a TTL of 15 s"
now=${EPOCHREALTIME//[!0-9]/}
((now - sent3 >= 15000000)) || fail "e3's neighbour expired $(((now - sent3) / 1000)) ms after it was sent, before its TTL of 15 s"
echo "measured: e3's neighbour (TTL 15 s) gone $(((now - sent3) / 1000)) ms after it was sent"
status --prometheus >"$WORK/t4.prom" || true
grep -q 'bondd_slave_lldp_neighbour_info{master="bond0",device="e3"' "$WORK/t4.prom" && fail "Prometheus still names e3's neighbour"
grep -q 'bondd_slave_lldp_neighbour_info{master="bond0",device="e1"' "$WORK/t4.prom" || fail "Prometheus lost e1's neighbour"
status --neighbours >"$WORK/t4.txt" || true
file_has "$WORK/t4.txt" "bond0 e3: no neighbour heard" || { cat "$WORK/t4.txt"; fail "text still names e3's neighbour"; }

# swp2 now takes jumbo frames: a new frame clears the finding.
"${SEND[@]}" good p2 $CHASSIS sw-a swp2 'rack 3 port 2' 20 9216 120
healthy() { status --json >"$WORK/t5.json"; }
wait_until 10 healthy || { cat "$WORK/t5.json"; fail "bond0 not healthy after swp2 announced 9216"; }
echo "measured: switch-max-frame found on e2, cleared by its next frame"
