# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# LLDP receive under valgrind's memcheck: good and malformed LLDPDUs on two
# slaves, a slave deleted and created again (its socket re-opened), two
# speakers on it and then one, a flood (the socket paused and resumed by
# its timer), every output read, then a reload to lldp = no (sockets closed, records freed)
# and a clean SIGTERM.  Any valgrind report fails it.  Fails on the code
# before LLDP reception (lldp = is an unknown key there).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"

nics 2
conf() {
	write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 1500
link_check = no
lldp = $1
slaves = e1 e2
CONF
}
conf yes
start_valgrind_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 1500 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond0 not whole"; }
SEND=(ip netns exec "$PEER" python3 "$LIB_DIR/lldp-send.py")
C=02:00:00:00:5c:01
json_field() { # json_field FILE PYTHON-EXPRESSION-OF-d
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
heard() { # heard N: N slaves have a neighbour
	status --json >"$WORK/s.json"
	[[ $(json_field "$WORK/s.json" "sum(1 for s in d['bonds'][0]['slave_status'] if s['lldp'] and s['lldp']['neighbour'])") == "$1" ]]
}

"${SEND[@]}" good p1 $C sw-c swp1 'port 1' 10 1518 120
"${SEND[@]}" good p2 $C sw-c swp1 'port 1' 10 1518 120
"${SEND[@]}" bad p1 >/dev/null
# A flood: e1's socket is paused past its read budget, a timer resumes it.
"${SEND[@]}" flood p1 2000 $C sw-c swp1 'port 1' 10 1518 120 >/dev/null
wait_until 60 heard 2 || { show_log; fail "two neighbours not heard under valgrind"; }
status --prometheus >/dev/null || true
status --neighbours >/dev/null || true

# e2 deleted and created again: its socket follows the new device.
ip link del e2
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p2 up
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 1500 --timeout 60 >/dev/null ||
	{ show_log; fail "re-created e2 not repaired"; }
# swp2 while swp1's frame still holds: two speakers; then swp1 leaves
# (TTL 0): swp2 alone, a changed neighbour.
"${SEND[@]}" good p2 $C sw-c swp2 'port 2' 20 9216 120
lldp_finding() {
	status --json >"$WORK/s.json"
	[[ $(json_field "$WORK/s.json" '[f["kind"] for f in d["bonds"][0]["findings"] if f["source"] == "lldp"]') == *"$1"* ]]
}
wait_until 60 lldp_finding several-neighbours || { json_field "$WORK/s.json" 'd["bonds"][0]["findings"]'; fail "re-created e2 did not hear its second speaker"; }
status --neighbours >/dev/null || true
"${SEND[@]}" good p2 $C sw-c swp1 'port 1' 10 1518 0
wait_until 60 lldp_finding neighbour-changed || { json_field "$WORK/s.json" 'd["bonds"][0]["findings"]'; fail "re-created e2 did not hear its new neighbour"; }

conf no
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 60 || { show_log; fail "no reload"; }
status --json >"$WORK/s.json" || true
assert_eq "[None, None]" "$(json_field "$WORK/s.json" '[s["lldp"] for s in d["bonds"][0]["slave_status"]]')" "lldp after the reload to lldp = no"
valgrind_verdict
