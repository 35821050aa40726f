# SPDX-License-Identifier: MIT
# Several LLDP speakers on one slave (issue 31): the switch on e1 announces
# a 1518-byte port (confirmed, degraded), then a second speaker (another
# chassis, another source MAC) is heard on the same slave: not one cable's
# neighbour (a hub, a VM bridge, a forger).  Both records are shown with
# their sources in --json and --neighbours, e1 gives no verdict (the bond is
# healthy) and several-neighbours (information) names both.  The second
# speaker leaves (TTL 0): the switch's verdict is back at once.  Fails on
# the code before several speakers (the second frame replaced the first).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
ip -n "$PEER" -batch - <<<$'link set p1 mtu 9000\nlink set p2 mtu 9000'
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
link_check = no
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
wait_until 10 mii_up e2 || fail "slaves not up"

json_field() { # json_field FILE PYTHON-EXPRESSION-OF-d
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
findings() { json_field "$1" '[(f["kind"], f["severity"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]'; }
SEND=(ip netns exec "$PEER" python3 "$LIB_DIR/lldp-send.py")
C=02:00:00:00:5d:01
C9=02:00:00:00:5d:99
OTHER=02:77:77:77:77:77
P1MAC=$(ip netns exec "$PEER" cat /sys/class/net/p1/address)

"${SEND[@]}" --twice good p1 $C sw-d swp1 'port 1' 10 1518 120
degraded() { ! status --json >"$WORK/t1.json"; }
wait_until 10 degraded || fail "bond0 healthy with e1's port at 1518 bytes"
assert_eq "[('switch-max-frame', 'degraded', ['e1'])]" "$(findings "$WORK/t1.json")" "findings, the switch alone"

"${SEND[@]}" --src $OTHER good p1 $C9 vm-bridge tap0 '' - 9216 120
two() { status --json >"$WORK/t2.json"; }
wait_until 10 two || { findings "$WORK/t2.json"; fail "bond0 still degraded while e1 hears two speakers"; }
assert_eq "[('several-neighbours', 'info', ['e1'])]" "$(findings "$WORK/t2.json")" "findings, two speakers on e1"
assert_eq "None [('$P1MAC', 'swp1', 'confirmed'), ('$OTHER', 'tap0', 'unconfirmed')]" \
	"$(json_field "$WORK/t2.json" "(lambda l: str(l['neighbour']) + ' ' + str([(n['source_mac'], n['port_id'], n['verdicts']) for n in l['neighbours']]))(d['bonds'][0]['slave_status'][0]['lldp'])")" \
	"e1's records"
evidence=$(json_field "$WORK/t2.json" '[f["evidence"] for f in d["bonds"][0]["findings"] if f["kind"] == "several-neighbours"][0]')
assert_eq "e1 hears 2 LLDP speakers at once, port swp1 on sw-d from $P1MAC and port tap0 on vm-bridge from $OTHER: not one cable's neighbour, no LLDP verdict from e1" \
	"$evidence" "several-neighbours evidence"
status --neighbours >"$WORK/t2.txt" || fail "--neighbours not healthy with two speakers"
cat "$WORK/t2.txt"
file_has "$WORK/t2.txt" "bond0 e1: 2 LLDP speakers at once, no verdict from this slave (frames 3," || fail "--neighbours: no summary line"
file_has "$WORK/t2.txt" "bond0 e1:   switch sw-d (chassis $C) port swp1 \"port 1\" pvid 10 max-frame 1518, heard " || fail "--neighbours: no switch line"
file_has "$WORK/t2.txt" "bond0 e1:   switch vm-bridge (chassis $C9) port tap0 max-frame 9216, heard " || fail "--neighbours: no second speaker's line"
file_has "$WORK/t2.txt" " from $OTHER, expires in " || fail "--neighbours: no second speaker's source"
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/t2.json" "$samples/204-lldp-several.json"

"${SEND[@]}" --src $OTHER good p1 $C9 vm-bridge tap0 '' - 9216 0
wait_until 10 degraded || { findings "$WORK/t1.json"; fail "the switch's verdict not back after the second speaker left"; }
assert_eq "[('switch-max-frame', 'degraded', ['e1'])]" "$(findings "$WORK/t1.json")" "findings after the second speaker left"
echo "measured: two speakers on e1: no verdict, several-neighbours; one again: the switch's verdict back"
