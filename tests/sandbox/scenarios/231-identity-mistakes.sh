# SPDX-License-Identifier: MIT
# Slave entries by mac:, path: and altname, the mistakes (bondd.conf(5)):
# a malformed entry, and one link named by two entries of one bond or of
# two, are refused with FILE:LINE by --check, at start (nothing created)
# and on reload (nothing changed); a link renamed while bondd runs into the
# name another entry gives is that error too, logged with both places.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/vec-lib.sh"

vec_take 1 nic-x 2 nic-y 3 nic-z
ip link property add dev nic-z altname storage-port-3
conf=$WORK/bondd.conf

# refused FILE WANT...: --check exits 78 with each WANT on stderr, and a
# start exits 78 having created nothing.
refused() {
	local file=$1 want rc=0
	shift
	"$BONDD" --check --config "$file" >"$WORK/check.out" 2>&1 || rc=$?
	assert_eq 78 "$rc" "--check's exit status for $file"
	for want in "$@"; do
		file_has "$WORK/check.out" "$want" || { cat "$WORK/check.out"; fail "--check lacks: $want"; }
	done
	rc=0
	"$BONDD" --config "$file" --socket "$SOCK" >"$WORK/start.out" 2>&1 || rc=$?
	assert_eq 78 "$rc" "bondd's exit status at start with $file"
	for want in "$@"; do
		file_has "$WORK/start.out" "$want" || { cat "$WORK/start.out"; fail "the start lacks: $want"; }
	done
	[[ ! -e /sys/class/net/bond0 && ! -e /sys/class/net/bond1 ]] || fail "a refused start created a bond"
}

printf '[bond0]\nmtu = 1500\nslaves = nic-x mac:02:00:00:00:aa:1 path:platform-uml-vector.2/p1\n' >"$conf"
refused "$conf" \
	"bondd.conf:3: slaves: invalid permanent MAC \"mac:02:00:00:00:aa:1\": expected mac:XX:XX:XX:XX:XX:XX" \
	"bondd.conf:3: slaves: invalid device path \"path:platform-uml-vector.2/p1\": expected /portN"

# One link, two entries of one bond: its name and its permanent address.
printf '# one NIC twice\n[bond0]\nmtu = 1500\nslaves = nic-x nic-y mac:%s\n' "$(vec_perm 1)" >"$conf"
refused "$conf" "$conf:4: [bond0] nic-x and $conf:4: [bond0] mac:02:00:00:00:aa:01 both name nic-x"

# One link, entries of two bonds, in two files: a path and an altname.
mkdir -p "$conf.d"
printf '[bond0]\nmtu = 1500\nslaves = path:platform-uml-vector.3 nic-y\n' >"$conf"
printf '[bond1]\nmtu = 1500\nslaves = nic-x storage-port-3\n' >"$conf.d/10-more.conf"
refused "$conf" "$conf:3: [bond0] path:platform-uml-vector.3 and $conf.d/10-more.conf:3: [bond1] storage-port-3 both name nic-z"
rm -r "$conf.d"

# A good file runs; a reload of one with a conflict is refused and changes
# nothing.
printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1\n' \
	"$(vec_perm 2)" >"$conf"
start_bondd "$conf"
whole bond0 nic-y,nic-x 1500 >/dev/null
writes=$(log_count "apply:")
printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1 nic-y\n' \
	"$(vec_perm 2)" >"$conf"
kill -HUP "$BONDD_PID"
wait_log "reload failed: keeping the running configuration" 1 10 || { show_log; fail "the reload was not refused"; }
file_has "$BONDD_LOG" "$conf:5: [bond0] mac:02:00:00:00:aa:02 and $conf:5: [bond0] nic-y both name nic-y" ||
	{ show_log; fail "the refused reload does not say where"; }
assert_eq "$writes" "$(log_count "apply:")" "writes after the refused reload"
bond_slaves bond0
assert_eq "nic-y nic-x" "$SLAVES" "the bond after the refused reload"

# While bondd runs: a NIC renamed to the name another entry gives.  The
# same error, with both places; nothing moves: the entry that had the link
# keeps it.
printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1 nic-w\n' \
	"$(vec_perm 2)" >"$conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded: 1 bond" 1 10 || { show_log; fail "the good reload"; }
ip -batch - <<<"link set nic-y down
link set nic-y name nic-w
link set nic-w up"
wait_log "$conf:5: [bond0] mac:02:00:00:00:aa:02 and $conf:5: [bond0] nic-w both name nic-w" 1 5 ||
	{ show_log; fail "the conflict after the rename was not reported"; }
writes=$(log_count "apply:")
bondd_settle
bond_slaves bond0
assert_eq "nic-w nic-x" "$SLAVES" "the bond after the conflict"
assert_eq "$writes" "$(log_count "apply:")" "writes after the conflict"
# Fixed in the file: nothing to do.
printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1\n' \
	"$(vec_perm 2)" >"$conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded: 1 bond" 2 10 || { show_log; fail "the reload that fixes it"; }
whole bond0 nic-w,nic-x 1500 >/dev/null
assert_eq "$writes" "$(log_count "apply:")" "writes after the fix"
