# SPDX-License-Identifier: MIT
# Do no harm: a slave whose enslave keeps failing (a VXLAN over a dummy of
# MTU 1500 refuses the bond's MTU 9000) listed before healthy ones in a
# balance-rr bond (keep_order yes).  Every retry of it must not release
# and re-enslave the healthy slaves after it to make room for an order it
# cannot take: e2 and e3 stay in bond0 throughout, zero releases, while v9
# is retried and its failure stays in status.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
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
slaves = e1 v9 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
# Retries at 100, 200, 400, 800, 1600 ms: at least four in 3 s.
nap 3
tries=$(log_count "v9: enslaving it to bond0 refused by the kernel")
echo "measured: $tries failed enslaves of v9 in about 3 s"
((tries >= 4)) || { show_log; fail "v9 was retried only $tries times"; }
for d in e2 e3; do
	assert_eq 0 "$(log_count "apply: release $d ")" "releases of the healthy $d"
done
bond_slaves bond0
assert_eq "e1 e2 e3" "$SLAVES" "bond0's slaves"
{ status --brief || true; } | grep -q "v9" || fail "--brief does not name v9"
