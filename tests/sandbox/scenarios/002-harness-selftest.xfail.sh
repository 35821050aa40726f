# SPDX-License-Identifier: MIT
# Harness self-test, EXPECTED TO FAIL (the .xfail suffix): it asserts that a
# balance-rr bond reports active-backup.  run-scenarios reports it as passing
# only because it fails, and shows its output, which proves that a failing
# assertion is detected and its message reaches the report.  If it ever
# passes, the harness is broken and the run fails.
. "$LIB_DIR/lib.sh"

[[ -x $NL_MKBOND ]] || fail "$NL_MKBOND is not built"

veth_pair v0 p0
"$NL_MKBOND" b0 v0

IFS= read -r mode </sys/class/net/b0/bonding/mode
assert_eq "active-backup 1" "$mode" "sysfs mode (deliberately wrong)"
