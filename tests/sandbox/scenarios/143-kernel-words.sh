# SPDX-License-Identifier: MIT
# Issue 12, the kernel's own words: a NIC that refuses MTU 9000 (a VXLAN
# over a dummy of MTU 1500: it reports max_mtu 65485 and still refuses
# anything its lower device cannot carry).  The log and status name the
# link, the MTU and the kernel's errno text; bondd had set the link down to
# enslave it and sets it up again when the enslave fails.  (On 717c04d:
# "failed on v9: Invalid input data or parameter", no MTU, link left down.)
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
ip -batch - <<'BATCH' || skip "no vxlan in this kernel"
link add parent0 type dummy
link set parent0 mtu 1500
link set parent0 up
link add v9 type vxlan id 9 dev parent0 dstport 4789
link set v9 up
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 v9 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
wait_log "v9: enslaving it to bond0 refused by the kernel" 1 10 || { show_log; fail "no refusal logged"; }
line=
while IFS= read -r l; do
	[[ $l == *"v9: enslaving it to bond0 refused by the kernel"* ]] && { line=$l; break; }
done <"$BONDD_LOG"
echo "measured: log: $line"
[[ $line == *"Invalid argument"* ]] || fail "the kernel's errno text is missing: $line"
[[ $line == *"MTU 9000"* ]] || fail "the MTU is not named: $line"
wait_log "set v9 up again (its enslave failed)" 1 5 || { show_log; fail "v9 not set up again"; }
flags=$(sysval /sys/class/net/v9/flags)
(( flags & 1 )) || fail "v9 left admin-down (flags $flags)"
[ ! -e /sys/class/net/v9/master ] || fail "v9 enslaved"

status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
# Word for word (a failure is data, made into text where shown:
# model/bond_notes.c action_failure_text); the VXLAN's MTU is its dummy's
# less the 50 bytes of its headers (drivers/net/vxlan/vxlan_core.c
# vxlan_config_apply, VXLAN_HEADROOM).
want = ("v9: enslaving it to bond0 refused by the kernel: Invalid argument "
        "(enslaving sets v9 to the bond's MTU 9000; it is at 1450)")
for text in (b["failing"], b["last_error"]["text"]):
    assert text == want, text
print("status shows:", b["failing"])
PY
