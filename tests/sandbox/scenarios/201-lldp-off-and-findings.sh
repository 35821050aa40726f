# SPDX-License-Identifier: MIT
# lldp = no, then the LLDP findings between slaves.  With lldp = no the
# switch's LLDPDUs change nothing: every slave's "lldp" is null, no LLDP
# metric, --neighbours says it is off.  A reload to lldp = yes: e1 and e2
# hear one switch port (same-switch-port, degraded, naming both) and all
# three ports are in VLAN 10 (switch-one-vlan, information, balance-rr),
# each confirmed by two frames (lldp_eval.h).  e2's cable moves to swp2 in
# VLAN 20: while swp1's last frame on e2 still holds (min(TTL, 120 s)), e2
# hears two speakers at once: no verdict from e2 (the finding clears, the
# bond is healthy) and several-neighbours (information) says why.  swp1's
# shutdown LLDPDU on e2 leaves swp2 alone: e2's neighbour changed
# (information).  swp1 shuts down on e1 (TTL 0): e1's neighbour is gone at
# once, and with it the VLAN finding.  Fails on the code before LLDP
# reception (no "lldp" member).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
conf() {
	write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
link_check = no
lldp = $1
slaves = e1 e2 e3
CONF
}
conf no
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
wait_until 10 mii_up e3 || fail "slaves not up"

json_field() { # json_field FILE PYTHON-EXPRESSION-OF-d
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
lldp_of() { echo "[s for s in d[\"bonds\"][0][\"slave_status\"] if s[\"name\"]==\"$1\"][0][\"lldp\"]"; }
findings() { json_field "$1" '[(f["kind"], f["severity"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]'; }
SEND=(ip netns exec "$PEER" python3 "$LIB_DIR/lldp-send.py")
C=02:00:00:00:5b:01

# lldp = no: frames change nothing.
"${SEND[@]}" good p1 $C sw-b swp1 '' 10 - 120
nap 0.5
status --json >"$WORK/t0.json" || fail "bond0 not healthy with lldp = no: exit $?"
assert_eq "[None, None, None]" "$(json_field "$WORK/t0.json" '[s["lldp"] for s in d["bonds"][0]["slave_status"]]')" "lldp with lldp = no"
status --prometheus >"$WORK/t0.prom" || true
grep -q 'bondd_slave_lldp_[a-z_]*{master="bond0"' "$WORK/t0.prom" && fail "LLDP metrics with lldp = no"
status --neighbours >"$WORK/t0.txt" || true
assert_eq "bond0: LLDP off (lldp = no)" "$(<"$WORK/t0.txt")" "--neighbours with lldp = no"

# lldp = yes: e1 and e2 on swp1, every port in VLAN 10.
conf yes
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
senders=()
"${SEND[@]}" --twice good p1 $C sw-b swp1 '' 10 - 120 & senders+=($!)
"${SEND[@]}" --twice good p2 $C sw-b swp1 '' 10 - 120 & senders+=($!)
"${SEND[@]}" --twice good p3 $C sw-b swp3 '' 10 - 120 & senders+=($!)
wait "${senders[@]}" # not bare wait: bondd is a child too
heard() { # heard FILE N: N slaves have a neighbour
	status --json >"$1"
	[[ $(json_field "$1" "sum(1 for s in d['bonds'][0]['slave_status'] if s['lldp'] and s['lldp']['neighbour'])") == "$2" ]]
}
wait_until 10 heard "$WORK/t1.json" 3 || { cat "$WORK/t1.json"; fail "three neighbours not heard"; }
status --json >"$WORK/t1.json" && fail "bond0 healthy with e1 and e2 on one switch port"
assert_eq "[('same-switch-port', 'degraded', ['e1', 'e2']), ('switch-one-vlan', 'info', ['e1', 'e2', 'e3'])]" \
	"$(findings "$WORK/t1.json")" "LLDP findings, e1 and e2 on swp1"
problem=$(json_field "$WORK/t1.json" 'd["bonds"][0]["problem"]')
[[ $problem == "same-switch-port: e1 and e2 hear one switch port: swp1 on sw-b" ]] || fail "the bond's problem is: $problem"
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/t1.json" "$samples/201-lldp-findings.json"
status --prometheus >"$samples/201-lldp-findings.prom" || true
file_has "$samples/201-lldp-findings.prom" 'bondd_bond_findings{master="bond0",device="bond0",kind="same-switch-port",severity="degraded"} 1' ||
	fail "Prometheus lacks the same-switch-port finding"
file_has "$samples/201-lldp-findings.prom" 'bondd_slave_lldp_neighbour_info{master="bond0",device="e2",chassis_id="'$C'",system_name="sw-b",port_id="swp1",port_description="",port_vlan_id="10",max_frame_size="",source_mac="'"$(ip netns exec "$PEER" cat /sys/class/net/p2/address)"'"} 1' ||
	fail "Prometheus lacks e2's neighbour"

# e2's cable moves to swp2, VLAN 20: swp1's frames still hold, e2 hears
# two speakers: healthy (no verdict from e2), several-neighbours.
"${SEND[@]}" good p2 $C sw-b swp2 '' 20 - 120
moved() { status --json >"$WORK/t2.json"; }
wait_until 10 moved || { findings "$WORK/t2.json"; fail "bond0 not healthy after e2 heard swp2 too"; }
assert_eq "[('switch-one-vlan', 'info', ['e1', 'e3']), ('several-neighbours', 'info', ['e2'])]" \
	"$(findings "$WORK/t2.json")" "LLDP findings while e2 hears swp1 and swp2"
assert_eq "None ['swp1', 'swp2']" "$(json_field "$WORK/t2.json" "(lambda l: str(l['neighbour']) + ' ' + str([n['port_id'] for n in l['neighbours']]))($(lldp_of e2))")" "e2's records while it hears two speakers"
status --neighbours >"$WORK/t2.txt" || true
file_has "$WORK/t2.txt" "bond0 e2: 2 LLDP speakers at once, no verdict from this slave" ||
	{ cat "$WORK/t2.txt"; fail "--neighbours does not say e2 hears two speakers"; }
# swp1 says it leaves e2 (TTL 0): swp2 alone, e2's neighbour changed.
"${SEND[@]}" good p2 $C sw-b swp1 '' 10 - 0
alone() { status --json >"$WORK/t2.json" && [[ $(findings "$WORK/t2.json") == *neighbour-changed* ]]; }
wait_until 10 alone || { findings "$WORK/t2.json"; fail "no neighbour-changed after swp1 left e2"; }
assert_eq "[('switch-one-vlan', 'info', ['e1', 'e3']), ('neighbour-changed', 'info', ['e2'])]" \
	"$(findings "$WORK/t2.json")" "LLDP findings after e2 moved"
evidence=$(json_field "$WORK/t2.json" '[f["evidence"] for f in d["bonds"][0]["findings"] if f["kind"] == "neighbour-changed"][0]')
assert_eq "e2's neighbour changed from port swp1 on sw-b to port swp2 on sw-b" "$evidence" "neighbour-changed evidence"

# swp1 shuts down (TTL 0): e1's neighbour goes at once, and the VLAN finding.
"${SEND[@]}" good p1 $C sw-b swp1 '' 10 - 0
gone1() { status --json >"$WORK/t3.json" && [[ $(json_field "$WORK/t3.json" "$(lldp_of e1)['neighbour']") == None ]]; }
wait_until 10 gone1 || fail "e1's neighbour still there after a TTL of 0"
assert_eq "[('neighbour-changed', 'info', ['e2'])]" "$(findings "$WORK/t3.json")" "LLDP findings after swp1 shut down"
echo "measured: same-switch-port and switch-one-vlan found, cleared by new frames and a shutdown LLDPDU"
