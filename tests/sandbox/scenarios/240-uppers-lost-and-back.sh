# SPDX-License-Identifier: MIT
# Issue 33: bondd beside the network manager that owns what is stacked on
# its bond.  A bridge (a manager's vmbr0) and a VLAN over bondd's bond
# show in --json as its uppers; bridge = br0 makes the bond the bridge's
# port (the bridge itself is never touched).  A VLAN the manager deletes
# while the bond stays is no finding.  The bond deleted by hand: the kernel
# deletes the VLAN and drops the bridge port with it; bondd names them in a
# warning, puts the bond back in br0 within 1 s, and keeps bond0 degraded
# ("uppers lost: bond0.21") until the VLAN is added again by hand; a
# reload accepts a loss, and moves the bond to another bridge hitlessly.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = active-backup
miimon = 100
mtu = 1500
slaves = e1 e2
bridge = br0
CONF
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
# No bridge yet: nothing done, and the status says so (a note, healthy).
status --json >"$WORK/nobridge.json" || { show_log; fail "bond0 without its bridge is not healthy"; }
jq -e '.bonds[0].bridge == {"name":"br0","state":"absent",
	"note":"bridge br0 does not exist: bond0 joins it when it does"}' "$WORK/nobridge.json" >/dev/null ||
	{ jq .bonds[0].bridge "$WORK/nobridge.json"; fail "no note for the missing bridge"; }

# The manager's part: the bridge (bondd makes bond0 its port), two VLANs.
ip -batch - <<'BATCH'
link add br0 type bridge
link set br0 up
link add link bond0 name bond0.21 type vlan id 21
link add link bond0 name bond0.22 type vlan id 22
link set bond0.21 up
BATCH
in_br0() { [ -e /sys/class/net/br0/brif/bond0 ]; }
wait_until 2 in_br0 || { show_log; fail "bondd did not make bond0 a port of br0"; }
file_has "$BONDD_LOG" "apply: add bond0 to bridge br0 (bridge)" || { show_log; fail "no set-bridge logged"; }
status --json >"$WORK/uppers.json" || { show_log; fail "bond0 with its uppers is not healthy"; }
cp "$WORK/uppers.json" "$samples/240-uppers.json"
jq -e --argjson br "$(sysval /sys/class/net/br0/ifindex)" \
	--argjson v21 "$(sysval /sys/class/net/bond0.21/ifindex)" '.bonds[0] |
	(.uppers | map(select(.name == "br0")) == [{"name":"br0","kind":"bridge","ifindex":$br}])
	and (.uppers | map(select(.name == "bond0.21")) ==
	     [{"name":"bond0.21","kind":"vlan","ifindex":$v21,"vlan_id":21}])
	and (.uppers | length == 3) and .uppers_lost == [] and .bridge.state == "port"' \
	"$WORK/uppers.json" >/dev/null || { jq .bonds[0].uppers "$WORK/uppers.json"; fail "uppers in --json"; }

# The manager deletes a VLAN on purpose: no finding, now or when the bond
# goes later (its grace, UPPERS_GRACE_MS, is 2 s).
ip link del bond0.22
gone22=$EPOCHREALTIME
nap 0.3
status --brief >/dev/null || { status --brief || true; show_log; fail "a VLAN deleted on purpose made bond0 unhealthy"; }
(($(log_count "uppers lost") == 0 && $(log_count "removed with it") == 0)) ||
	{ show_log; fail "a VLAN deleted on purpose was counted as lost"; }
rest=$(( (2300000 - (${EPOCHREALTIME/./} - ${gone22/./})) / 1000 ))
((rest <= 0)) || nap "$(printf '%d.%03d' $((rest / 1000)) $((rest % 1000)))"

# The bond deleted by hand: back in br0 within 1 s, the VLAN named lost.
t0=${EPOCHREALTIME/./}
ip link del bond0
deadline=$((t0 + 3000000))
while ! in_br0; do
	((${EPOCHREALTIME/./} < deadline)) || { show_log; fail "bond0 not back in br0"; }
	nap 0.01
done
REPAIR_MS=$(((${EPOCHREALTIME/./} - t0) / 1000))
echo "measured: bond0 back in br0 ${REPAIR_MS} ms after ip link del bond0 (the spawn included)"
assert_within 1000 "bond0 back in br0"
warning="bond0: deleted; the kernel removed with it: bridge port of br0, vlan bond0.21"
wait_log "$warning" 1 2 || { show_log; fail "no warning naming what went with bond0"; }
(($(log_count "bond0.22") == 0)) || { show_log; fail "bond0.22, deleted on purpose, was named"; }
whole bond0 e1,e2 1500 >/dev/null
[ ! -e /sys/class/net/bond0.21 ] || fail "the kernel kept bond0.21"
rc=0 && status --json >"$WORK/lost.json" || rc=$?
((rc == 1)) || { cat "$WORK/lost.json"; show_log; fail "exit status $rc with bond0.21 lost, expected 1"; }
cp "$WORK/lost.json" "$samples/240-uppers-lost.json"
jq -e '.bonds[0] | .health == "degraded" and .problem == "uppers lost: bond0.21"
	and .uppers_lost == [{"name":"bond0.21","kind":"vlan","vlan_id":21}]
	and .bridge.state == "port"' "$WORK/lost.json" >/dev/null ||
	{ jq '.bonds[0] | {health, problem, uppers_lost}' "$WORK/lost.json"; fail "uppers lost in --json"; }
file_has "$BONDD_LOG" "bond0: back over the bond: bridge port of br0" ||
	{ show_log; fail "the bridge port's return was not logged"; }

# The manager (here, by hand) adds the VLAN again: healthy.
cleared_before=$(log_count "bond0: health: degraded -> healthy")
ip link add link bond0 name bond0.21 type vlan id 21
healthy() { status --brief bond0 >/dev/null; }
wait_until 3 healthy || { status --brief || true; show_log; fail "bond0.21 back, bond0 still degraded"; }
file_has "$BONDD_LOG" "bond0: back over the bond: vlan bond0.21" || { show_log; fail "no line for bond0.21 back"; }
# bondd's own health (the log, STATUS=) says so too, not only a reply
# (which judges afresh): the VLAN's event names no configured link.
back_healthy() { (($(log_count "bond0: health: degraded -> healthy") > cleared_before)); }
wait_until 2 back_healthy || { show_log; fail "bondd's own health did not clear 'uppers lost'"; }

# Lost again, then a reload accepts its absence.
ip link del bond0
whole bond0 e1,e2 1500 >/dev/null
wait_until 2 in_br0 || fail "bond0 not back in br0 (second deletion)"
degraded() { rc=0; status --brief bond0 >/dev/null || rc=$?; ((rc == 1)); }
wait_until 2 degraded || fail "bond0.21 lost again, bond0 not degraded"
# The same reload moves the bond to another bridge, without a re-build:
# the bond and its slaves keep their carrier and their counters.
ip -batch - <<'BATCH'
link add br1 type bridge
link set br1 up
BATCH
before=$(counters bond0)
sed -i 's/^bridge = br0$/bridge = br1/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_until 3 healthy || { status --brief || true; show_log; fail "a reload did not accept the loss"; }
file_has "$BONDD_LOG" "bond0: reload: no longer waiting for uppers lost with the bond" ||
	{ show_log; fail "the reload did not say it accepts the loss"; }
[ -e /sys/class/net/br1/brif/bond0 ] && [ ! -e /sys/class/net/br0/brif/bond0 ] ||
	{ show_log; fail "the reload did not move bond0 from br0 to br1"; }
file_has "$BONDD_LOG" "apply: add bond0 to bridge br1 (bridge)" || { show_log; fail "no move logged"; }
assert_eq "$before" "$(counters bond0)" "bond0 and its slaves' counters across the bridge move"
(($(log_count "(rebuild)") == 0)) || { show_log; fail "a bridge change re-built the bond"; }
