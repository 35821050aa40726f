# SPDX-License-Identifier: MIT
# scenario-timeout: 120
# An idle bondd sleeps: with the bonds as configured, and with a difference
# a hold explains (a slave the kernel refuses, retried with backoff), the
# retry after the pass limit must not wake it.  Wake-ups are counted as
# bondd's context switches (/proc/PID/status) over 10 s with nothing
# happening; in the hold case each hold retry ("bond1: v9: ") may cost one.
# The link check is off (link_check = no): these balance-rr bonds' peers
# run no bondd, and a bond whose check hears no peer checks again on a
# backoff by design (bondd(8), LINK CHECK); 182 measures the link check's
# own quiet with peers, the unit tests the retries' schedule.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# switches PID: voluntary plus involuntary context switches so far.
switches() {
	local key val n=0
	while read -r key val; do
		[[ $key == *ctxt_switches: ]] && n=$((n + val))
	done <"/proc/$1/status"
	echo "$n"
}

# idle_window LABEL MAX_EXTRA: counts bondd's switches over 10 s and fails
# above (hold retries in the window) + MAX_EXTRA.
idle_window() {
	local label=$1 slack=$2 s0 s1 r0 r1
	s0=$(switches "$BONDD_PID")
	r0=$(log_count "bond1: v9: ")
	nap 10
	s1=$(switches "$BONDD_PID")
	r1=$(log_count "bond1: v9: ")
	echo "measured: $label: $((s1 - s0)) context switches in 10 s idle, $((r1 - r0)) hold retries"
	(((s1 - s0) <= (r1 - r0) + slack)) ||
		{ show_log; fail "$label: bondd woke $((s1 - s0)) times in 10 s idle"; }
}

# No IPv6 in this namespace: duplicate address detection and multicast
# reports on new links are kernel events that wake bondd legitimately,
# seconds after the links came up; they are not what is measured here.
sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
nics 5
ip -batch - <<'BATCH' || skip "no vxlan in this kernel"
link add parent0 type dummy
link set parent0 mtu 1500
link set parent0 up
link add v9 type vxlan id 9 dev parent0 dstport 4789
BATCH

# The bonds as configured: nothing to do, nothing to wake for.
standard_conf "$WORK/bondd.conf"
echo "link_check = no" >>"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
nap 2
idle_window "bonds as configured" 2
stop_bondd

# A difference a hold explains: v9, a VXLAN, cannot take MTU 9000 (its
# parent has 1500), so bond1 lacks it and bondd retries it with backoff only.
standard_conf "$WORK/bondd.conf"
cat >>"$WORK/bondd.conf" <<'CONF'
link_check = no
[bond1]
slaves = e5 v9
link_check = no
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
whole bond1 e5 9000 >/dev/null
# Backoff 100 ms doubling: by "retrying in 6400 ms" the retries are 12.8 s
# apart, so a 10 s window holds at most one.
wait_log "retrying in 6400 ms" 1 30 || { show_log; fail "v9 not retried with backoff"; }
idle_window "a hold explains the difference" 2
status --json >"$WORK/status.json" || true
python3 - "$WORK/status.json" <<'PY'
import json, sys
b = {x["name"]: x for x in json.load(open(sys.argv[1]))["bonds"]}
print("bond1 health:", b["bond1"]["health"], b["bond1"].get("health_reason"))
assert b["bond0"]["health"] == "healthy", b["bond0"]
PY
