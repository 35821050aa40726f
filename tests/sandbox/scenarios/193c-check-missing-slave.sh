# SPDX-License-Identifier: MIT
# bondd --check on a config with a slave that does not exist (a typo, e9
# for e2) and a file closed to others (mode 0600): it passes (exit 0,
# "configuration OK"), and warns of both: the slave by name with the
# bond's FILE:LINE, the file with the chmod that lets the service's
# dynamic user read it.  --check --plan names the slave it cannot find.
# A file readable by others and slaves that exist: no such warnings.
# Fails on the code before (a missing slave passed with "nothing to do").
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 1
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
link_check = off
slaves = e1 e9
CONF
chmod 600 "$WORK/bondd.conf"
chmod o+x "$WORK"
rc=0
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check.out" 2>&1 || rc=$?
cat "$WORK/check.out"
assert_eq 0 "$rc" "--check exit status with a missing slave"
file_has "$WORK/check.out" "configuration OK" || fail "no 'configuration OK'"
file_has "$WORK/check.out" "$WORK/bondd.conf:1: warning: [bond0]: slave e9 does not exist now" ||
	fail "--check does not name the missing slave e9"
file_has "$WORK/check.out" "slave e1 " && fail "--check warns of e1, which exists"
file_has "$WORK/check.out" "$WORK/bondd.conf: warning: the service's user cannot read it (mode 0600" ||
	fail "--check does not say the service's user cannot read the file"
"$BONDD" --check --plan --config "$WORK/bondd.conf" >"$WORK/plan.out" 2>/dev/null || fail "--check --plan failed"
cat "$WORK/plan.out"
file_has "$WORK/plan.out" "bond0: e9: not found: enslaved when it appears" || fail "the plan does not name e9"
file_has "$WORK/plan.out" "e1: not found" && fail "the plan says e1 is not found"

chmod 644 "$WORK/bondd.conf"
sed -i 's/slaves = e1 e9/slaves = e1/' "$WORK/bondd.conf"
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check2.out" 2>&1 || fail "--check failed on a right file"
file_has "$WORK/check2.out" "does not exist now" && fail "a missing-slave warning with every slave present"
file_has "$WORK/check2.out" "cannot read" && fail "an unreadable-file warning on a file of mode 0644"
echo "measured: --check warned of e9 and of mode 0600, and of nothing on a right file"
