# SPDX-License-Identifier: MIT
# Slaves named by what survives renames (bondd.conf(5), slaves): four NICs
# of UML's vector driver under names unrelated to their order are enslaved
# in the configured order by permanent MAC, device path and altname; one
# renamed while enslaved (down, rename, up) keeps its place with no release
# and no enslave; and after every NIC is renamed between two runs of bondd
# (a new naming scheme), the same file gives the same order.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/vec-lib.sh"

vec_take 1 zz-a 2 mm-b 3 aa-c 4 nn-d
ip link property add dev nn-d altname port-four-of-this-host
# (UML 6.1's vector driver reports max_mtu 1500 whatever mtu= says: the
# bond keeps 1500.)  The current address is not the permanent one: mac:
# must not look at it.
ip link set dev mm-b address 02:00:00:00:aa:03

write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 1500
slaves = mac:02:00:00:00:AA:03 path:platform-uml-vector.1/port0 port-four-of-this-host mac:$(vec_perm 2)
address = 10.77.0.1/24
CONF

# --check --plan says which link each entry matches now.
"$BONDD" --check --plan --config "$WORK/bondd.conf" >"$WORK/plan.out" 2>&1 ||
	{ cat "$WORK/plan.out"; fail "--check --plan"; }
for want in "bond0: slave mac:02:00:00:00:AA:03 is aa-c (" \
	"bond0: slave path:platform-uml-vector.1/port0 is zz-a (" \
	"bond0: slave port-four-of-this-host is nn-d (" \
	"bond0: slave mac:02:00:00:00:aa:02 is mm-b (" \
	"permanent address 02:00:00:00:aa:03, path platform-uml-vector.3/port0)"; do
	file_has "$WORK/plan.out" "$want" || { cat "$WORK/plan.out"; fail "--check --plan lacks: $want"; }
done

start_bondd "$WORK/bondd.conf"
whole bond0 aa-c,zz-a,nn-d,mm-b 1500 >/dev/null
bond_slaves bond0
assert_eq "aa-c zz-a nn-d mm-b" "$SLAVES" "the kernel's order"

# The status: the entry as written beside today's name, the permanent
# address and the device path.
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY' || { cat "$WORK/status.json"; fail "--json per slave"; }
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
got = [(s["selector"], s["name"], s["permanent_address"], s["device_path"], s["position"])
       for s in b["slave_status"]]
want = [("mac:02:00:00:00:AA:03", "aa-c", "02:00:00:00:aa:03", "platform-uml-vector.3", 1),
        ("path:platform-uml-vector.1/port0", "zz-a", "02:00:00:00:aa:01", "platform-uml-vector.1", 2),
        ("port-four-of-this-host", "nn-d", "02:00:00:00:aa:04", "platform-uml-vector.4", 3),
        ("mac:02:00:00:00:aa:02", "mm-b", "02:00:00:00:aa:02", "platform-uml-vector.2", 4)]
assert got == want, got
assert b["configured"]["slaves"] == [w[0] for w in want], b["configured"]["slaves"]
PY
brief=$(status --brief) || true
[[ $brief == "bond0 healthy balance-rr mtu 1500 slaves 4/4 up"* ]] || fail "--brief: $brief"

# Renamed while enslaved, as udev or an admin does it: the same slave.
# First a link failure the bond counts, so that a release and a new
# enslave (which start the count again at 0) would show.
failed() { (($(sysval /sys/class/net/zz-a/bonding_slave/link_failure_count) >= 1)); }
ip link set zz-a down
wait_until 5 failed || fail "the bond did not count zz-a's link failure"
ip link set zz-a up
wait_until 5 mii_up zz-a || fail "zz-a did not come back"
releases=$(log_count "apply: release")
enslaves=$(log_count "apply: enslave")
fails=$(sysval /sys/class/net/zz-a/bonding_slave/link_failure_count)
ip -batch - <<<"link set zz-a down
link set zz-a name ens3f0np0
link set ens3f0np0 up"
wait_log "slave path:platform-uml-vector.1/port0 is now ens3f0np0 (was zz-a)" 1 5 ||
	{ show_log; fail "bondd did not note the rename"; }
whole bond0 aa-c,ens3f0np0,nn-d,mm-b 1500 >/dev/null
# A release or a re-enslave would have shown by now.
bondd_settle
bond_slaves bond0
assert_eq "aa-c ens3f0np0 nn-d mm-b" "$SLAVES" "the kernel's order after the rename"
assert_eq "$releases" "$(log_count "apply: release")" "releases after the rename"
assert_eq "$enslaves" "$(log_count "apply: enslave")" "enslaves after the rename"
now=$(sysval /sys/class/net/ens3f0np0/bonding_slave/link_failure_count)
((now >= fails)) || fail "the renamed slave's link failures went from $fails to $now: enslaved again"
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY' || { cat "$WORK/status.json"; fail "--json after the rename"; }
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
s = b["slave_status"][1]
assert (s["selector"], s["name"], s["enslaved"], s["position"]) == \
    ("path:platform-uml-vector.1/port0", "ens3f0np0", True, 2), s
PY

# A new naming scheme between two runs: every NIC renamed, the names now in
# the opposite order; the same file gives the same order.
stop_bondd
ip link del bond0
batch=""
for pair in aa-c:n1 ens3f0np0:n2 nn-d:n3 mm-b:n4; do
	batch+="link set ${pair%%:*} down"$'\n'"link set ${pair%%:*} name ${pair##*:}"$'\n'
done
ip -batch - <<<"$batch"
start_bondd "$WORK/bondd.conf"
whole bond0 n1,n2,n3,n4 1500 >/dev/null
batch=""
for pair in n1:p-4 n2:p-3 n3:p-2 n4:p-1; do
	batch+="link set ${pair%%:*} down"$'\n'"link set ${pair%%:*} name ${pair##*:}"$'\n'
done
stop_bondd
ip link del bond0
ip -batch - <<<"$batch"
start_bondd "$WORK/bondd.conf"
whole bond0 p-4,p-3,p-2,p-1 1500 >/dev/null
bond_slaves bond0
assert_eq "p-4 p-3 p-2 p-1" "$SLAVES" "the order under the second naming"

# A NIC gone (moved out of this namespace): its entry is a missing slave;
# back under yet another name, it joins at its place.
ip link set dev p-3 netns 1
whole bond0 p-4,p-2,p-1 1500 >/dev/null
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY' || { cat "$WORK/status.json"; fail "--json of a missing entry"; }
import json, sys
s = json.load(open(sys.argv[1]))["bonds"][0]["slave_status"][1]
assert (s["selector"], s["name"], s["present"], s["enslaved"]) == \
    ("path:platform-uml-vector.1/port0", "path:platform-uml-vector.1/port0", False, False), s
PY
vec_take 1 back-again
whole bond0 p-4,back-again,p-2,p-1 1500 >/dev/null
