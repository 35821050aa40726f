# SPDX-License-Identifier: MIT
# Who may reload (issue 14, attack): root holding CAP_NET_ADMIN, or the
# user a confined bondd runs as.  Not root without the capability when
# bondd itself is root, not a user holding CAP_NET_ADMIN alone, and not a
# process that connected as root and then dropped to nobody before asking:
# the right is checked when the reload is asked for, on the process as it
# is then.
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
sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"

refused() {
	local who=$1 rc=0 err
	shift
	err=$("$@" 2>&1) || rc=$?
	assert_eq 1 "$rc" "bondd-status --reload exit status for $who"
	[[ $err == *"reload refused: reload needs root"* ]] || fail "refusal to $who said \"$err\""
	assert_eq "$keep" "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after $who's reload"
}
keep=100

refused "root without capabilities" \
	setpriv --inh-caps=-all --bounding-set=-all -- "$BONDD_STATUS" --socket "$SOCK" --reload
refused "uid 1000 holding CAP_NET_ADMIN" \
	setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=-all,+net_admin \
	--ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin -- \
	"$BONDD_STATUS" --socket "$SOCK" --reload

# Connected as root, then became nobody (setuid drops every capability),
# then asked; and the same process staying root, which may.
connect_then() {
	python3 - "$SOCK" "$1" <<'PY'
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
time.sleep(0.3)  # accepted (and looked at) while still root
if sys.argv[2] == "drop":
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
s.sendall(b"reload\n")
s.settimeout(30)
print(s.recv(4096).decode().splitlines()[0])
PY
}
out=$(connect_then drop) || fail "the dropping client failed"
[[ $out == *" error 403 "* ]] || fail "a client that dropped to nobody after connecting got \"$out\""
assert_eq 100 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after the dropped client's reload"
out=$(connect_then stay) || fail "the root client failed"
[[ $out == *" ok "* ]] || fail "root's reload got \"$out\""
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after root's reload"

# Confined as bondd.service runs it: its own user may (083), root with
# CAP_NET_ADMIN may, nobody may not.
stop_bondd
confine_bondd
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
sed -i 's/miimon = 200/miimon = 300/' "$WORK/bondd.conf"
status --reload >/dev/null || fail "root could not reload a confined bondd"
assert_eq 300 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after root's reload (confined)"
sed -i 's/miimon = 300/miimon = 100/' "$WORK/bondd.conf"
keep=300
refused nobody as_nobody "$BONDD_STATUS" --socket "$SOCK" --reload
