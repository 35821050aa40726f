# SPDX-License-Identifier: MIT
# Per-slave counters and the slave-errors finding.  The switch side of e2
# sends 100 frames larger than e2's MTU: the kernel drops each on receive
# and counts it in e2's rx_dropped (net/core/dev.c __dev_forward_skb2), while
# e1 and e3 stay clean; then e2's carrier is lost and comes back.  JSON and
# Prometheus show e2's drops, its link failure (the bonding driver's count)
# and its carrier flap; the next look (10 s after the first) finds
# slave-errors on e2 alone and the bond is degraded naming it; a look
# after that with no new drops clears it.  Fails on the code before the
# counters (no rx_dropped field, no finding).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
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
slave='[s for s in d["bonds"][0]["slave_status"] if s["name"]=="e2"][0]'

status --json >"$WORK/t0.json" || fail "bondd-status --json at the start: exit $?"
first=$(date +%s)
failures0=$(json_field "$WORK/t0.json" "$slave[\"link_failure_count\"]")
drops0=$(json_field "$WORK/t0.json" "$slave[\"rx_dropped\"]") || fail "no rx_dropped in the JSON"

# 100 frames of 9200 bytes from the switch side: above e2's MTU 9000.
ip -n "$PEER" link set p2 mtu 9500
ip netns exec "$PEER" python3 -c '
import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("p2", 0))
frame = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x02" + b"\x88\xb5" + bytes(9200 - 14)
# veth reports the drop at e2 back to the sender (ENOBUFS, packet_snd): expected.
for _ in range(100):
    try:
        s.send(frame)
    except OSError as e:
        if e.errno != 105:
            raise
'
# A carrier loss on e2.
ip -n "$PEER" link set p2 down
wait_until 5 bash -c '[ "$(cat /sys/class/net/e2/bonding_slave/mii_status)" = down ]' ||
	fail "e2 did not go MII down"
ip -n "$PEER" link set p2 up
wait_until 5 mii_up e2 || fail "e2 did not come back"

# The next look is due 10 s after the first.
while (($(date +%s) - first < 11)); do nap 0.5; done
status --json >"$WORK/t1.json" && { cat "$WORK/t1.json"; show_log; fail "bond0 healthy with e2 dropping: exit 0"; }
# Prometheus at once: every request looks again once 10 s have passed
# since the last look (daemon.c counters_look), and the python3 starts
# below take seconds each in a loaded guest; a sample taken after them
# could be a new, quiet look that has already cleared the finding.
status --prometheus >"$WORK/t1.prom" || true
drops1=$(json_field "$WORK/t1.json" "$slave[\"rx_dropped\"]")
failures1=$(json_field "$WORK/t1.json" "$slave[\"link_failure_count\"]")
flaps1=$(json_field "$WORK/t1.json" "$slave[\"carrier_flaps\"]")
echo "measured: e2 rx_dropped $drops0 -> $drops1, link failures $failures0 -> $failures1, flaps $flaps1"
((drops1 - drops0 >= 100)) || fail "e2 rx_dropped moved by $((drops1 - drops0)), not 100"
((failures1 > failures0)) || fail "e2's link failure count did not move"
((flaps1 >= 1)) || fail "e2's carrier flap was not counted"
for s in e1 e3; do
	other=$(json_field "$WORK/t1.json" "[s for s in d[\"bonds\"][0][\"slave_status\"] if s[\"name\"]==\"$s\"][0][\"rx_dropped\"]")
	((other < 10)) || fail "$s dropped $other: the sandbox is not as assumed"
done
problem=$(json_field "$WORK/t1.json" 'd["bonds"][0]["problem"]')
[[ $problem == "slave-errors: e2 had "*" drops in "*" s while its siblings had less than a tenth of that" ]] ||
	fail "the bond's problem is: $problem"
kinds=$(json_field "$WORK/t1.json" '[(f["source"], f["kind"], f["slaves"]) for f in d["bonds"][0]["findings"] if f["source"] == "counters"]')
assert_eq "[('counters', 'slave-errors', ['e2'])]" "$kinds" "findings"

samples=$BUILD_DIR/status-samples
mkdir -p "$samples"
cp "$WORK/t1.json" "$samples/199-slave-errors.json"
cp "$WORK/t1.prom" "$samples/199-slave-errors.prom"
file_has "$samples/199-slave-errors.prom" "bondd_slave_rx_dropped_total{master=\"bond0\",device=\"e2\"} $drops1" ||
	file_has "$samples/199-slave-errors.prom" 'bondd_slave_rx_dropped_total{master="bond0",device="e2"}' ||
	fail "Prometheus lacks e2's rx_dropped"
file_has "$samples/199-slave-errors.prom" 'bondd_bond_findings{master="bond0",device="bond0",kind="slave-errors",severity="degraded"} 1' ||
	{ grep findings "$samples/199-slave-errors.prom"; fail "Prometheus lacks the slave-errors finding"; }
file_has "$samples/199-slave-errors.prom" "bondd_slave_link_failures_total{master=\"bond0\",device=\"e2\"} $failures1" ||
	fail "Prometheus lacks e2's link failures"
for c in rx_errors tx_errors tx_dropped rx_crc_errors rx_missed_errors; do
	file_has "$samples/199-slave-errors.prom" "bondd_slave_${c}_total{master=\"bond0\",device=\"e1\"} " ||
		fail "Prometheus lacks bondd_slave_${c}_total"
done

# No new drops: the look after next clears it.
second=$(date +%s)
while (($(date +%s) - second < 11)); do nap 0.5; done
status --json >"$WORK/t2.json" || { cat "$WORK/t2.json"; fail "still not healthy with e2 quiet"; }
echo "measured: slave-errors found after one look, cleared by the next quiet one"
