# SPDX-License-Identifier: MIT
# Issue 35: a drop-in that retires a bond no earlier file defines, with a
# name one typo away from one that is defined ([bnod0], state = absent,
# beside [bond0]), is refused by --check and by a reload with FILE:LINE and
# "did you mean [bond0]?" (it would delete nothing, and the bond meant
# stays), without advice about MTU or miimon for a bond to delete.  A
# drop-in retiring a bond left from an earlier configuration (bond1, made
# by hand, apart from bond0 only in its digit) is taken: bond1 is deleted,
# bond0 is untouched.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
mkdir "$WORK/bondd.conf.d"
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 1500
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
before=$(counters bond0)
writes=$(log_count "apply:")

typo=$WORK/bondd.conf.d/90-retire.conf
write_conf "$typo" <<CONF
# retire the old bond
[bnod0]
state = absent
CONF
rc=0
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check.out" 2>&1 || rc=$?
cat "$WORK/check.out"
[ "$rc" -ne 0 ] || fail "--check accepted the misspelt retirement"
file_has "$WORK/check.out" "$typo:2: [bnod0]: state = absent retires a bond bnod0, which no earlier file defines; did you mean [bond0]?" ||
	fail "--check did not name the line and suggest [bond0]"
for noise in "no mtu" "without link monitoring"; do
	if file_has "$WORK/check.out" "$noise"; then fail "--check advised about a bond to delete: $noise"; fi
done
rc=0
err=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status with the typo"
[[ $err == *"$typo:2: [bnod0]"*"did you mean [bond0]?"* ]] || fail "the refused reload said \"$err\""
assert_eq "$before" "$(counters bond0)" "bond0 after the refused reload"
assert_eq "$writes" "$(log_count "apply:")" "writes after the refused reload"

# A bond left from an earlier configuration, retired by a drop-in.
ip link add bond1 type bond mode active-backup
write_conf "$typo" <<CONF
[bond1]
state = absent
CONF
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check2.out" 2>&1 ||
	{ cat "$WORK/check2.out"; fail "--check refused retiring bond1"; }
status --reload >/dev/null || { show_log; fail "the reload retiring bond1 was refused"; }
gone() { [ ! -e /sys/class/net/bond1 ]; }
wait_until 5 gone || { show_log; fail "bond1 was not deleted"; }
assert_eq "$before" "$(counters bond0)" "bond0 after bond1 was retired"
echo "[bnod0] refused with did you mean [bond0]; [bond1] retired; bond0 untouched"
