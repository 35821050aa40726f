# SPDX-License-Identifier: MIT
# scenario-timeout: 150
# A switch that aggregates each host's ports (a static LAG, as the kernel's
# bonding documentation sets balance-rr up with EtherChannel): hosts a and
# b, their e1..e4 cabled to switch ports that a balance-xor bond per host
# in the switch namespace aggregates into one bridge port.
#   -> both hosts: one switch-lag finding, confirmed (exit 1), naming the
#      consequence; no one-way, crossed, unreachable or shared-domain
#   link_topology = lag in the bond's section, reloaded -> health 0, the
#      switch-lag finding informational, and quiet (no re-checks).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/linkcheck-lib.sh"

SW=$(peer_ns sw)
ip -n "$SW" link add br0 type bridge || skip "no bridge in this kernel (bridge.ko)"
ip -n "$SW" link set br0 up
declare -A NS
for h in a b; do
	NS[$h]=$(peer_ns "$h")
	batch="" sw_batch="link add lag$h type bond mode balance-xor xmit_hash_policy layer2"$'\n'
	sw_batch+="link set lag$h mtu 9000"$'\n'
	for i in 1 2 3 4; do
		batch+="link add e$i type veth peer name $h$i netns $SW"$'\n'
		sw_batch+="link set $h$i mtu 9000"$'\n'"link set $h$i master lag$h"$'\n'
	done
	sw_batch+="link set lag$h master br0"$'\n'"link set lag$h up"$'\n'
	ip -n "${NS[$h]}" -batch - <<<"$batch"
	ip -n "$SW" -batch - <<<"$sw_batch" || skip "no bonding in the switch namespace"
done
lc_conf "$WORK/host.conf"
trap lc_stop EXIT
lc_start "$WORK/host.conf" a b
st() { "$BONDD_STATUS" --socket "$WORK/$1.sock" "${@:2}"; }
lag_confirmed() {
	local json
	json=$(st "$1" --json) || true
	[[ $json == *'"kind":"switch-lag","severity":"degraded"'* ]]
}
for h in a b; do
	wait_until 30 lag_confirmed "$h" ||
		{ st "$h" --link-check; lc_show_logs "$h"; fail "$h: no confirmed switch-lag finding"; }
done
for h in a b; do
	rc=0
	st "$h" --link-check >"$WORK/$h.table" 2>&1 || rc=$?
	st "$h" --json >"$WORK/$h.json" || true
	# (the heredoc's body starts on the line after the command: the check
	# of its status comes after its end)
	krc=0
	python3 - "$h" "$rc" "$WORK/$h.json" >"$WORK/$h.kinds" 2>&1 <<'PY' || krc=$?
import json, sys
h, rc = sys.argv[1], int(sys.argv[2])
b = json.load(open(sys.argv[3]))["bonds"][0]
kinds = sorted((f["kind"], f["severity"]) for f in b["findings"] if f["source"] == "link_check")
assert kinds == [("switch-lag", "degraded")], kinds
f = [f for f in b["findings"] if f["kind"] == "switch-lag"][0]
assert f["slaves"] == ["e1", "e2", "e3", "e4"], f["slaves"]
assert "one port of the LAG" in f["fix"] and "link_topology = lag" in f["fix"], f["fix"]
assert rc == 1, f"bondd-status --link-check exit {rc}, expected 1"
print(f"{h}: {f['evidence']}")
PY
	[ "$krc" -eq 0 ] ||
		{ cat "$WORK/$h.kinds" "$WORK/$h.table"; lc_show_logs "$h"; fail "$h: wrong findings through a LAG"; }
	cat "$WORK/$h.kinds"
done
# Real output for the validators (tests/check-status-outputs)
mkdir -p "$BUILD_DIR/status-samples"
cp "$WORK/a.json" "$BUILD_DIR/status-samples/189-switch-lag.json"
st a --prometheus >"$BUILD_DIR/status-samples/189-switch-lag.prom" || true
grep -E 'warning: .*link check: (one-way|crossed|unreachable|shared-domain)' "$WORK/a.log" "$WORK/b.log" &&
	fail "a LAG was logged as a fault of another kind"

# The admin says the LAG is meant.
printf 'link_topology = lag\n' >>"$WORK/host.conf"
for h in a b; do kill -HUP "${PID[$h]}"; done
info_only() {
	local json
	json=$(st "$1" --json) || true
	[[ $json == *'"kind":"switch-lag","severity":"info"'* ]] && lc_health "$1"
}
for h in a b; do
	wait_until 15 info_only "$h" || { st "$h" --link-check; lc_show_logs "$h"; fail "$h: not healthy with link_topology = lag"; }
done
rc=0
st a --link-check >"$WORK/a2.table" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$WORK/a2.table"; fail "a: --link-check exit $rc with the LAG declared"; }
wait_until 15 lc_settled a || { lc_show_logs a; fail "a keeps re-checking an intended LAG"; }
echo "link_topology = lag: health 0, switch-lag informational, quiet"
