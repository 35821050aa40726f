# SPDX-License-Identifier: MIT
# Harness check: the sandbox kernel's bonding driver works.  A balance-rr
# bond over two veths (far ends in a peer namespace), made by nl-mkbond over
# raw rtnetlink, reads back as configured from /proc and sysfs.
. "$LIB_DIR/lib.sh"

[[ -x $NL_MKBOND ]] || fail "$NL_MKBOND is not built"

peer=$(peer_ns peer)
veth_pair v0 p0 "$peer"
veth_pair v1 p1 "$peer"
"$NL_MKBOND" b0 v0 v1

# The slaves' carrier comes from the peers being up: allow the bond a moment
# to see it.  The bond's own MII status is the one before the first slave.
bond_up() {
	proc_bond b0
	[[ ${PROC_BOND%%$'\nSlave Interface'*} == *$'\nMII Status: up\n'* ]]
}
wait_until 5 bond_up || { echo "$PROC_BOND"; fail "b0 did not come up"; }

proc_bond b0
echo "$PROC_BOND"
[[ $PROC_BOND == *$'\nBonding Mode: load balancing (round-robin)\n'* ]] ||
	fail "/proc/net/bonding/b0 does not say round-robin"
[[ $PROC_BOND == *$'\nSlave Interface: v0\n'*$'\nSlave Interface: v1\n'* ]] ||
	fail "/proc/net/bonding/b0 does not list v0 then v1"

IFS= read -r mode </sys/class/net/b0/bonding/mode
assert_eq "balance-rr 0" "$mode" "sysfs mode"
bond_slaves b0
assert_eq "v0 v1" "$SLAVES" "sysfs slaves"
