# SPDX-License-Identifier: MIT
# Behaviour 11: a slave that cannot take the MTU (a VXLAN over a 1500-byte
# parent refuses 9000; a VLAN would do the same, but bondd does not enslave
# VLANs) fails with the kernel's message, is retried with
# backoff, and does not stop the other slaves or the other bond.  Once its
# parent can carry jumbo frames, a retry succeeds.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
ip -batch - <<'BATCH'
link add parent0 type dummy
link set parent0 mtu 1500
link set parent0 up
link add v9 type vxlan id 9 dev parent0 dstport 4789
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
slaves = e1 v9 e2
[bond1]
slaves = e3
CONF
start_bondd "$WORK/bondd.conf"
whole bond1 e3 9000 >/dev/null
whole bond0 e1,e2 9000 >/dev/null
wait_log "v9: enslaving it to bond0 refused by the kernel" 2 10 || { show_log; fail "v9's failure not retried"; }
file_has "$BONDD_LOG" "retrying in 200 ms" || { show_log; fail "no backoff"; }
# Kept visible for the status socket, with the interface and the kernel's words.
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY'
import json, sys
b = {x["name"]: x for x in json.load(open(sys.argv[1]))["bonds"]}
err = b["bond0"]["last_error"]
assert err and err["text"].startswith("v9: "), err
assert b["bond0"]["errors"] >= 2, b["bond0"]["errors"]
assert b["bond1"]["last_error"] is None and b["bond1"]["health"] == "healthy", b["bond1"]
print("status shows:", err["text"])
PY

ip link set parent0 mtu 9100 # VXLAN takes 50 bytes
whole bond0 e1,v9,e2 9000 --timeout 40
