# SPDX-License-Identifier: MIT
# Behaviour 8, a reload that answers: `bondd-status --reload` (the unit's
# ExecReload=) returns once the new file is applied, so the change is in
# the kernel when it exits 0; a file with an error makes it exit 1 with
# bondd's FILE:LINE and changes nothing; a user who is neither root nor
# bondd's own user is refused; bondd's own user (what systemd runs
# ExecReload= as) may reload a confined bondd.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
index=$(sysval /sys/class/net/bond0/ifindex)

# Applied before the answer: read the kernel at once, no waiting.
sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"
out=$(status --reload) || fail "bondd-status --reload exited $? on a good file"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon as the reload returns"
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex (changed in place)"
[[ $out == "reloaded $WORK/bondd.conf: 1 bond" ]] || fail "reload said \"$out\""

# Refused: exit 1, the reason with FILE:LINE, nothing changed.
before=$(counters bond0)
writes=$(log_count "apply:")
printf '[bond0]\nmiimon = 300\nslaves = e1 e2\nmiimom = 1\n' >"$WORK/bondd.conf"
rc=0
err=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status on a bad file"
[[ $err == *"reload refused: $WORK/bondd.conf:4: "*"running configuration stays"* ]] ||
	fail "refusal said \"$err\""
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after a refused reload"
assert_eq "$writes" "$(log_count "apply:")" "writes after a refused reload"
assert_eq "$before" "$(counters bond0)" "the bond after a refused reload"

# Nobody may not reload, even a good file.
printf '[bond0]\nmiimon = 300\nslaves = e1 e2\n' >"$WORK/bondd.conf"
rc=0
err=$(as_nobody "$BONDD_STATUS" --socket "$SOCK" --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status for nobody"
[[ $err == *"needs root"* ]] || fail "refusal to nobody said \"$err\""
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after nobody's reload"

# bondd confined as bondd.service confines it; its own user reloads it.
stop_bondd
confine_bondd
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
printf '[bond0]\nmiimon = 400\nslaves = e1 e2\n' >"$WORK/bondd.conf"
setpriv --reuid=61234 --regid=61234 --clear-groups --inh-caps=-all --bounding-set=-all -- \
	"$BONDD_STATUS" --socket "$SOCK" --reload >/dev/null ||
	{ show_log; fail "bondd's own user could not reload"; }
assert_eq 400 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after its own user's reload"
