# SPDX-License-Identifier: MIT
# Issue 12, failures stay local: with IPv6 disabled (as on many storage
# nodes) a configured IPv6 address fails for ever.  Backoff is per action,
# so that failure never delays the bond's membership: a slave re-created
# 20 times is back in place each time (on 717c04d: after 6.4 s, up to 30 s),
# and status keeps showing the address failure in the kernel's words.
# bondd's own releases are not counted as carrier flaps.
# The target is 50 ms a round; on the shared, loaded CPU of the UML guest
# single rounds reach 250 ms (scheduling, not bondd: each request takes
# 1-2 ms; medians measured 13-63 ms), so the bounds are the median under
# 250 ms and every round under 1 s, far below the 6.4-30 s the bug shows;
# the rounds at 50 ms or more are printed.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
nics 4
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2 e3 e4
address = 10.77.0.1/24
address = fd00::1/64
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
wait_until 5 has_addr bond0 10.77.0.1/24 || fail "the IPv4 address is missing"
wait_log "fd00::1/64" 1 5 || { show_log; fail "no address failure"; }

worst=0 slow=0 all="" sorted=()
for round in $(seq 1 20); do
	ip link del e2
	whole bond0 e1,e3,e4 9000 >/dev/null
	watch_start bond0 e1,e2,e3,e4 9000 --after-new e2
	ip link add e2 type veth peer name p2 netns "$PEER"
	ip -n "$PEER" link set p2 up
	watch_end
	all+=" $REPAIR_MS"
	ms=${REPAIR_MS%.*}
	((ms < worst)) || worst=$ms
	((ms < 50)) || slow=$((slow + 1))
	sorted+=("$ms")
done
mapfile -t sorted <<<"$(printf '%s\n' "${sorted[@]}" | sort -n)"
median=${sorted[10]}
echo "measured: 20 rounds, whole after (ms):$all"
echo "measured: median ${median} ms, worst ${worst} ms, $slow of 20 rounds at 50 ms or more"
((worst < 1000)) || { show_log | tail -50; fail "a round took ${worst} ms"; }
((median < 250)) || { show_log | tail -50; fail "median round ${median} ms"; }

status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["bonds"][0]
failing = b["failing"] or ""
assert "fd00::1/64" in failing and "refused by the kernel" in failing, failing
assert "Permission denied" in failing, failing
print("status shows:", failing)
# bondd's own releases (e3 and e4, 20 times for the order) and the
# deletions of e2 are repairs, not carrier flaps.
flaps = {s["name"]: s["carrier_flaps"] for s in b["slave_status"]}
assert all(v == 0 for v in flaps.values()), flaps
print("carrier_flaps:", flaps)
PY
{ status --brief || true; } | grep -q "failing: bond0: address fd00::1/64 refused by the kernel" ||
	{ status --brief; fail "--brief does not show the address failure"; }
