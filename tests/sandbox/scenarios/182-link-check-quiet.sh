# SPDX-License-Identifier: MIT
# The link check stays quiet and bounded (hosts a and b with per-port
# VLANs as in 180, host c alone on ports in VLANs of their own):
#   10 s idle with peers present -> no wake-up of either bondd (context
#   switches unchanged: no timer, no periodic frame)
#   c with link_check = yes and no peer -> health 0, no finding
#   c reloaded with link_check = no -> no packet socket left in its namespace
#   a's e1 carrier toggled every 50 ms for 10 s -> a sends at most the
#   requests of 4 checks (the slave's bucket), b answers within its limit,
#   and a's matrix is whole again afterwards.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
lc_switch "$SW" || skip "no VLAN-aware bridge in this kernel (bridge.ko)"
declare -A NS
PIDS=()
for h in a b c; do
	NS[$h]=$(peer_ns "$h")
	# No IPv6 on the hosts: duplicate address detection and router
	# solicitations on the new bonds are kernel events that wake bondd
	# legitimately, seconds after the links came up (as in 164); the link
	# check's frames are plain Ethernet.
	ip netns exec "${NS[$h]}" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	lc_host "$SW" "${NS[$h]}" "$h"
done
lc_vlan "$SW" c1 91 c2 92 c3 93 c4 94
lc_conf "$WORK/host.conf"
cp "$WORK/host.conf" "$WORK/c.conf"

cleanup_hosts() {
	local p
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	bondd_cleanup
}
trap cleanup_hosts EXIT
show_logs() {
	local h
	for h in a b c; do
		echo "--- bondd log of host $h ---"
		tail -n 30 "$WORK/$h.log"
	done
}
declare -A PID
for h in a b c; do
	: >"$WORK/$h.log"
	conf=$WORK/host.conf
	[ "$h" = c ] && conf=$WORK/c.conf
	ip netns exec "${NS[$h]}" "$BONDD" --config "$conf" --socket "$WORK/$h.sock" \
		--debug >>"$WORK/$h.log" 2>&1 &
	PIDS+=($!)
	PID[$h]=$!
done
for h in a b c; do
	wait_until 10 file_has "$WORK/$h.log" "link check done" ||
		{ show_logs; fail "host $h made no link check at start"; }
done
st() { "$BONDD_STATUS" --socket "$WORK/$1.sock" "${@:2}"; }
# a's four slaves each answered at every size by b's slave of the same place
whole_a() {
	local n
	JSON=$(st a --json) || true
	lc_json_answered "$JSON" n
	((n == 4))
}
wait_until 10 whole_a || { show_logs; fail "a's matrix not whole at start"; }

# --- idle --------------------------------------------------------------------
switches() {
	local s line n=0
	read_file "/proc/$1/status" s
	while IFS= read -r line; do
		[[ $line == *ctxt_switches:* ]] && n=$((n + ${line##*[[:space:]]}))
	done <<<"$s"
	echo "$n"
}
nap 1.5
a0=$(switches "${PID[a]}") b0=$(switches "${PID[b]}")
nap 10
a1=$(switches "${PID[a]}") b1=$(switches "${PID[b]}")
echo "measured: idle 10 s with link_check on and a peer: a woke $((a1 - a0)) times, b $((b1 - b0))"
[ $((a1 - a0)) -eq 0 ] && [ $((b1 - b0)) -eq 0 ] || { show_logs; fail "bondd woke up while idle"; }

# --- c: no peer --------------------------------------------------------------
rc=0
st c --link-check >"$WORK/c.table" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/c.table"; fail "c alone: exit $rc, expected healthy"; }
read_file /proc/net/packet _ # (our own namespace: not c's)
# The link check's, not LLDP's (protocol 88cc: lldp = yes, the default,
# keeps a socket of its own).  One for the four slaves of a balance-rr bond:
# bound to no link, each frame's slave told by its ifindex (issue 34).
c_packet() { ip netns exec "${NS[c]}" cat /proc/net/packet | awk 'NR > 1 && $4 != "88cc"' | grep -c . || true; }
[ "$(c_packet)" -eq 1 ] || fail "c has $(c_packet) packet sockets with link_check = yes, not one shared"
sed -i 's/link_check = yes/link_check = no/' "$WORK/c.conf"
kill -HUP "${PID[c]}"
wait_until 5 file_has "$WORK/c.log" "reload" || fail "c did not reload"
no_packet() { [ "$(c_packet)" -eq 0 ]; }
wait_until 5 no_packet || fail "c still has $(c_packet) packet sockets with link_check = no"
st c >/dev/null || fail "c not healthy with link_check = no"
echo "c: healthy alone; no packet socket after link_check = no"

# --- a flapping slave ----------------------------------------------------------
j0=$(st a --json) || true
k0=$(st b --json) || true
python3 - "$SW" <<'PY'
import subprocess, sys, time
p = subprocess.Popen(["ip", "-n", sys.argv[1], "-batch", "-"], stdin=subprocess.PIPE, text=True)
end = time.monotonic() + 10
while time.monotonic() < end:
    for state in ("down", "up"):
        p.stdin.write(f"link set a1 {state}\n")
        p.stdin.flush()
        time.sleep(0.05)
p.stdin.close()
p.wait()
PY
nap 1.2
j1=$(st a --json) || true
k1=$(st b --json) || true
ra=$(($(lc_json_num "$j1" requests_total) - $(lc_json_num "$j0" requests_total)))
rb=$(($(lc_json_num "$k1" requests_total) - $(lc_json_num "$k0" requests_total)))
sb=$(($(lc_json_num "$k1" answers_sent) - $(lc_json_num "$k0" answers_sent)))
echo "measured: e1 flapping every 50 ms for 10 s: a sent $ra requests, b $rb requests and $sb answers"
# 4 checks (e1's bucket) of 4 slaves x 3 sizes, each with one resend of 3
# per slave for a peer that asked
((ra <= 4 * 24)) || { show_logs; fail "a sent $ra requests while e1 flapped"; }
((rb <= 4 * 24)) || { show_logs; fail "b sent $rb requests while a's e1 flapped"; }
st a --link-check >/dev/null || true
wait_until 5 whole_a || { show_logs; fail "a's matrix not whole after the flapping"; }
