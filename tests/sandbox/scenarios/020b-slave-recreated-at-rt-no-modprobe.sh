# SPDX-License-Identifier: MIT
# A NIC reset at real-time priority, as the unit runs bondd (SCHED_RR 1):
# the slave's carrier comes back (the host check reads its speed), then it is
# deleted and created again at once by a process above bondd's priority,
# five times.  bondd must never ask the kernel about a slave by a name that
# may be gone: the ethtool ioctl looks a name up with dev_load(), which for a
# missing name runs modprobe "netdev-NAME" and sleeps until it exits
# (net/core/dev_ioctl.c, kernel/kmod.c): that held every such repair for
# 120-200 ms here, and 300-450 ms under a status-socket flood.  Checked at
# the cause: kernel.modprobe points at a logger (which runs the real
# modprobe) and must see no "netdev-" request; each repair, timed from the
# new link's event by nlclock above bondd, within 1 s.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

: "${NLCLOCK:=$BUILD_DIR/bench/nlclock}"
[ -x "$NLCLOCK" ] || fail "no $NLCLOCK (the bench tools are part of the build)"

orig=$(cat /proc/sys/kernel/modprobe)
cat >"$WORK/modprobe-log" <<LOGGER
#!/bin/sh
echo "\$*" >>"$WORK/modprobe.calls"
exec "$orig" "\$@"
LOGGER
chmod +x "$WORK/modprobe-log"
: >"$WORK/modprobe.calls"
echo "$WORK/modprobe-log" >/proc/sys/kernel/modprobe
trap 'echo "$orig" >/proc/sys/kernel/modprobe' EXIT

nics 4
standard_conf "$WORK/bondd.conf"
BONDD_PREFIX="chrt -r 1" start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

chrt -r 50 "$NLCLOCK" --mtu 9000 --drift recreate:e2 --peer-ns "$PEER" --rounds 5 --timeout 10 \
	bond0=e1,e2,e3,e4 >"$WORK/rounds.json" || { cat "$WORK/rounds.json"; show_log; fail "a repair did not finish"; }
python3 - "$WORK/rounds.json" <<'PY' || fail "repairs at real-time priority"
import json, sys
ms = [json.loads(l)["ms"] for l in open(sys.argv[1]) if l.startswith("{")]
print("measured: repairs at SCHED_RR 1, ms:", ", ".join("%.1f" % m for m in ms))
assert len(ms) == 5 and all(m is not None and m <= 1000 for m in ms), ms
PY
echo "$orig" >/proc/sys/kernel/modprobe
trap - EXIT
if grep -q netdev- "$WORK/modprobe.calls"; then
	cat "$WORK/modprobe.calls"
	fail "bondd asked the kernel about a link by a name that was gone (modprobe netdev-...)"
fi
assert_eq "e1 e2 e3 e4" "$(sysval /sys/class/net/bond0/bonding/slaves)" "order"
