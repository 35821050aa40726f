# SPDX-License-Identifier: MIT
# Do no harm, hostile admin: "bondd --check --plan" must print the actions a
# start really takes, no more and no fewer.  A kernel left half right by
# hand (bond0 with a slave released, its MTU changed, a slave's MTU
# changed; ab0 in active-backup with its backup released; a NIC with an
# address named as a slave): the plan's lines are exactly the start's
# "apply:" lines, in order.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 7
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
mtu = 9000
slaves = e1 e2 e3

[ab0]
mode = active-backup
miimon = 100
mtu = 1500
primary = e4
slaves = e4 e5 e6 e7
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
whole ab0 e4,e5,e6,e7 1500 >/dev/null
stop_bondd
ip -batch - <<'BATCH'
link set e2 nomaster
link set bond0 mtu 4000
link set e5 nomaster
link set e6 mtu 1400
BATCH
ip link add e8 type dummy
ip addr add 198.51.100.8/24 dev e8
sed -i 's/slaves = e4 e5 e6 e7/slaves = e4 e5 e6 e7 e8/' "$WORK/bondd.conf"
"$BONDD" --check --plan --config "$WORK/bondd.conf" >"$WORK/plan.out" || true
cat "$WORK/plan.out"
: >"$BONDD_LOG"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null
nap 1
planned=() applied=()
while IFS= read -r l; do
	[[ $l == *": "*" ("*")"* && $l != *"nothing to do"* && $l != *" note "* ]] || continue
	l=${l%%  \[*}
	planned+=("${l#"${l%%[! ]*}"}")
done <"$WORK/plan.out"
while IFS= read -r l; do
	[[ $l == *": apply: "* ]] || continue
	l=${l#bondd: }
	applied+=("${l/: apply: /: }")
done <"$BONDD_LOG"
printf 'planned: %s\n' "${planned[@]}"
printf 'applied: %s\n' "${applied[@]}"
assert_eq "$(printf '%s\n' "${planned[@]}")" "$(printf '%s\n' "${applied[@]}")" "--check --plan against the start"
((${#planned[@]} == 6)) || fail "expected 6 planned actions, got ${#planned[@]}"
file_has "$WORK/plan.out" "ab0: e8: carries address 198.51.100.8/24, not enslaving it" ||
	fail "the plan does not say why e8 is left alone"
