# SPDX-License-Identifier: MIT
# The host check on a real kernel: each slave's hardware in --json (a veth:
# no PCI device, no driver, the speed the driver reports); TCP findings are
# information (health stays healthy) and follow the host: a sysctl changed
# by hand is seen at the next carrier change, within 1 s; a tcp_congestion
# the kernel lacks is degraded, with the kernel's words in last_error.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
slaves = e1 e2
address = 10.77.0.1/24
CONF
sysctl -qw net.ipv4.tcp_congestion_control=cubic net.ipv4.tcp_sack=1
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
healthy() { status --brief bond0 >/dev/null; }
wait_until 10 healthy || { status --brief || true; fail "bond0 did not become healthy"; }

status --json >"$WORK/s1.json" || fail "bondd-status --json exit status $?"
python3 - "$WORK/s1.json" <<'PY' || fail "first --json"
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
for s in b["slave_status"]:
    hw = s["hardware"]
    assert hw == {"pci": None, "driver": None, "speed_mbps": hw["speed_mbps"], "duplex": hw["duplex"]}, hw
    # veth_get_link_ksettings (drivers/net/veth.c): 10000, full, asked
    # of the kernel by ifindex (ethtool's netlink family)
    assert (hw["speed_mbps"], hw["duplex"]) == (10000, "full"), hw
kinds = [(f["source"], f["kind"], f["severity"]) for f in b["findings"]]
assert kinds == [("host_check", "tcp-setting", "info")], kinds
assert "cubic" in b["findings"][0]["evidence"], b["findings"][0]
assert b["health"] == "healthy", b["health"]
PY

# SACK off by hand; e2's carrier drops and returns: the check runs again.
sysctl -qw net.ipv4.tcp_sack=0
ip -n "$PEER" link set p2 down
ip -n "$PEER" link set p2 up
sack_seen() { status --json bond0 2>/dev/null | grep -q 'tcp_sack = 0'; }
wait_until 1 sack_seen || { status --json bond0 || true; fail "tcp_sack=0 not reported within 1 s of the carrier change"; }
sysctl -qw net.ipv4.tcp_sack=1
wait_until 10 healthy || fail "an informational finding made the bond unhealthy"

# An algorithm this kernel does not have: degraded, and the route write fails
# with the kernel's own words.
sed -i 's/^address = .*/&\ntcp_congestion = nosuch/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
degraded() { rc=0; status bond0 >/dev/null || rc=$?; ((rc == 1)); }
wait_until 2 degraded || { status --json || true; fail "exit status $rc with tcp_congestion = nosuch, expected 1"; }
status --json >"$WORK/s2.json" || true
python3 - "$WORK/s2.json" <<'PY' || { show_log; fail "second --json"; }
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
deg = [f for f in b["findings"] if f["severity"] == "degraded"]
assert len(deg) == 1 and deg[0]["kind"] == "tcp-setting", b["findings"]
assert "nosuch" in deg[0]["evidence"] and "cubic" in deg[0]["evidence"], deg[0]
assert b["last_error"] and "TCP congestion control" in b["last_error"]["text"] and \
    "refused by the kernel" in b["last_error"]["text"], b["last_error"]
print("last_error:", b["last_error"]["text"])
PY
# The bond itself is left as it was: still whole.
whole bond0 e1,e2 9000 >/dev/null
echo "host check: hardware shown, TCP findings follow the host, an unknown algorithm is degraded"
