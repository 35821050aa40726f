# SPDX-License-Identifier: MIT
# Issue 12, eligibility before touching: "slaves = e1 lo br0" (a typo and a
# bridge named by mistake).  bondd enslaves e1 and never changes lo or br0:
# not their admin state, MTU or master.  Status says why they are not
# enslaved.  (On 717c04d lo was set down: 127.0.0.1 dead, retried for ever.)
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 1
ip -batch - <<'BATCH'
link set lo up
link add br0 type bridge
link set br0 up
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 lo br0
CONF
state() {
	local d out=""
	for d in lo br0; do
		out+="$d flags=$(sysval /sys/class/net/$d/flags) mtu=$(sysval /sys/class/net/$d/mtu)"
		out+=" master=$([ -e /sys/class/net/$d/master ] && echo yes || echo no); "
	done
	printf '%s' "$out"
}
before=$(state)
start_bondd "$WORK/bondd.conf"
whole bond0 e1 9000 >/dev/null
# Long enough for a retry of anything that failed (the first backoff is 100 ms).
nap 1
assert_eq "$before" "$(state)" "lo and br0"
for d in lo br0; do
	assert_eq 0 "$(log_count "apply: link-down $d ")" "admin-down requests on $d"
	assert_eq 0 "$(log_count "enslave $d ")" "enslave requests for $d"
done
file_has "$BONDD_LOG" "lo: is the loopback device, not enslaving it" || { show_log; fail "no reason for lo"; }
file_has "$BONDD_LOG" "br0: is a bridge, not enslaving it" || { show_log; fail "no reason for br0"; }
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
# Word for word, in config order (the notes are data, joined where shown:
# model/bond_notes.c).
want = "lo: is the loopback device, not enslaving it; br0: is a bridge, not enslaving it"
assert b["notes"] == want, b["notes"]
print("status notes:", b["notes"])
PY
{ status --brief || true; } |
	grep -qF "[lo: is the loopback device, not enslaving it; br0: is a bridge, not enslaving it]" ||
	{ status --brief; fail "--brief has no reason"; }
