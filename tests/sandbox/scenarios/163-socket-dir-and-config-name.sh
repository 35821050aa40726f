# SPDX-License-Identifier: MIT
# The status socket's directory: every missing level is created (mode 755),
# and when it cannot be, bondd refuses to start instead of running without
# its socket and without the guard against a second instance; a second
# bondd on the same socket refuses too.  An empty --config is a usage
# error that names the problem.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

rc=0
"$BONDD" --config '' >"$WORK/out" 2>&1 || rc=$?
assert_eq 64 "$rc" "exit status of --config ''"
grep -q -- "--config: the file name is empty" "$WORK/out" || { cat "$WORK/out"; fail "no message for --config ''"; }
rc=0
"$BONDD" --check --config '' >"$WORK/out" 2>&1 || rc=$?
assert_eq 64 "$rc" "exit status of --check --config ''"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
slaves = e1
CONF
write_conf "$WORK/other.conf" <<CONF
[bondx]
slaves = e2
CONF

umask 022
SOCK=$WORK/a/b/c/bondd.sock
start_bondd "$WORK/bondd.conf"
whole bond0 e1 9000 >/dev/null
[[ -S $SOCK ]] || fail "no socket at $SOCK"
for d in a a/b a/b/c; do
	assert_eq 755 "$(stat -c %a "$WORK/$d")" "mode of $d"
done
rc=0
"$BONDD_STATUS" --socket "$SOCK" --brief >/dev/null || rc=$?
((rc <= 2)) || fail "bondd-status on the nested socket: exit $rc"

# A second bondd on that socket: refused, and it touched nothing.
rc=0
timeout 20 "$BONDD" --config "$WORK/other.conf" --socket "$SOCK" >"$WORK/second.log" 2>&1 || rc=$?
assert_eq 1 "$rc" "exit status of a second bondd"
grep -q "another bondd answers there" "$WORK/second.log" || { cat "$WORK/second.log"; fail "no message from the second bondd"; }

# A directory that cannot be made (a file is in the way): refused loudly.
: >"$WORK/file"
rc=0
timeout 20 "$BONDD" --config "$WORK/other.conf" --socket "$WORK/file/x/bondd.sock" >"$WORK/third.log" 2>&1 || rc=$?
assert_eq 1 "$rc" "exit status with an impossible socket directory"
grep -q "cannot create directory $WORK/file" "$WORK/third.log" || { cat "$WORK/third.log"; fail "no message naming the directory"; }
[[ ! -e /sys/class/net/bondx ]] || fail "a bondd that refused to start created bondx"
