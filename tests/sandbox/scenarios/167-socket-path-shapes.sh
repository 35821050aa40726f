# SPDX-License-Identifier: MIT
# --socket paths of odd shapes.  A path that can never be a socket (it ends
# in '/', or is too long for a UNIX socket address, 107 bytes) is a usage
# error naming the problem, before anything is done: bondd must not run
# without its socket and so without the guard against a second instance.
# Relative paths, '//' and '.' levels and a symlinked directory work, and
# the guard holds on them; a file in the way is named.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 1
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
slaves = e1
CONF
cd "$WORK"
umask 022

long=$WORK/$(printf 'x%.0s' {1..100})/s.sock
for bad in "$WORK/trail/" "$long"; do
	rc=0
	timeout 10 "$BONDD" --config "$WORK/bondd.conf" --socket "$bad" >"$WORK/out" 2>&1 || rc=$?
	assert_eq 64 "$rc" "exit status with --socket $bad"
	grep -q -- "--socket" "$WORK/out" || { cat "$WORK/out"; fail "no message naming --socket for $bad"; }
	[[ ! -e /sys/class/net/bond0 ]] || fail "bond0 created with the unusable --socket $bad"
done
[[ ! -e $WORK/trail ]] || fail "a directory was made for the unusable --socket $WORK/trail/"

# Shapes that work: the socket is there, and a second bondd is refused.
: >"$WORK/afile"
mkdir "$WORK/real"
ln -s "$WORK/real" "$WORK/link"
i=0
for good in rel/a/s.sock "./dot/./s.sock" "$WORK//dbl//s.sock" "$WORK/link/n/s.sock"; do
	SOCK=$good
	BONDD_LOG=$WORK/bondd.$((i++)).log # start_bondd waits for "ready" in it
	start_bondd "$WORK/bondd.conf"
	[[ -S $good ]] || fail "no socket at $good"
	rc=0
	timeout 10 "$BONDD" --config "$WORK/bondd.conf" --socket "$good" >"$WORK/out" 2>&1 || rc=$?
	assert_eq 1 "$rc" "exit status of a second bondd on $good"
	stop_bondd
done

rc=0
timeout 10 "$BONDD" --config "$WORK/bondd.conf" --socket "$WORK/afile/x/s.sock" >"$WORK/out" 2>&1 || rc=$?
assert_eq 1 "$rc" "exit status with a file in the way"
grep -q "$WORK/afile/x: Not a directory" "$WORK/out" || { cat "$WORK/out"; fail "the file in the way is not named"; }
echo "measured: 2 unusable socket paths refused as usage errors, 4 odd shapes served and guarded, a file in the way named"
