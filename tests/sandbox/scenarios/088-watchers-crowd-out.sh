# SPDX-License-Identifier: MIT
# Unprivileged users holding every client slot, many of them watching, must
# not lock root out: a reload (what `systemctl reload bondd` runs) and a
# privileged status request still get through, by ending one of their
# connections (issues 13 and 14).
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
crowd=

# Five unprivileged users each open as many connections as bondd lets one
# user hold (64), watching on every second one: together they fill every
# client slot (256), and the watch slots too.
for uid in 65534 65533 65532 65531 65530; do
	setpriv --reuid=$uid --regid=$uid --clear-groups --inh-caps=-all --bounding-set=-all -- \
		python3 - "$SOCK" >"$WORK/crowd-$uid.out" 2>&1 <<'PY' &
import socket, sys, time
conns = []
for i in range(64):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    if i % 2 == 0:
        try:
            s.sendall(b"watch\n")
        except OSError:
            pass
    conns.append(s)
time.sleep(1)
print("ready", flush=True)
time.sleep(600)
PY
	crowd+=" $!"
done
for uid in 65534 65533 65532 65531 65530; do
	wait_until 30 file_has "$WORK/crowd-$uid.out" ready || { cat "$WORK/crowd-$uid.out"; fail "the crowd of $uid did not gather"; }
done
n=$(log_count "is watching events")
echo "measured: $n watches started by five unprivileged users"
((n >= 64)) || fail "only $n watches: the crowd does not fill the watch slots"

sed -i 's/miimon = 100/miimon = 200/' "$WORK/bondd.conf"
out=$(status --reload 2>&1) || fail "root's reload with the slots full: $out"
assert_eq 200 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after root's reload"
status --brief >/dev/null || fail "root's status request with the slots full"
# shellcheck disable=SC2086 # a list of pids
kill $crowd
# shellcheck disable=SC2086
wait $crowd || true
