# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# The link check's test network, shared by scenario 180 and bench/linkcheck.sh:
# a "switch" namespace with a VLAN-aware bridge, and hosts (namespaces) with
# four NICs e1..e4 each, whose far ends are switch ports named after the host
# letter and the port number (a1..a4, b1..b4, ...): port N of every host in
# VLAN 20+N, untagged, MTU 9000.  Needs lib.sh (for nothing but bash).

# lc_switch SW: the bridge br0 in namespace SW (made by the caller).
# Returns 1 when this kernel has no VLAN-aware bridge.
lc_switch() {
	ip -n "$1" link add br0 type bridge vlan_filtering 1 vlan_default_pvid 0 2>/dev/null || return 1
	ip -n "$1" link set br0 up
}

# lc_host SW NS LETTER: NICs e1..e4 in NS, cabled to switch ports LETTER1..4
# in their VLANs.  LC_VID[port] keeps each port's VLAN for lc_vlan.
declare -gA LC_VID
lc_host() {
	local sw=$1 ns=$2 h=$3 i batch="" sw_batch="" br_batch=""
	for i in 1 2 3 4; do
		batch+="link add e$i type veth peer name $h$i netns $sw"$'\n'
		sw_batch+="link set $h$i mtu 9000 master br0 up"$'\n'
		br_batch+="vlan add dev $h$i vid $((20 + i)) pvid untagged"$'\n'
		LC_VID[$h$i]=$((20 + i))
	done
	ip -n "$ns" -batch - <<<"$batch"
	ip -n "$sw" -batch - <<<"$sw_batch"
	bridge -n "$sw" -batch - <<<"$br_batch"
}

# lc_cluster SW HOST...: hosts of two NICs e1, e2 each, in namespaces NS[HOST]
# (an associative array of the caller's, filled here), cabled to switch ports
# HOST1 and HOST2: every e1 in VLAN 10 and every e2 in VLAN 20, untagged, MTU
# 9000 (a right topology at cluster size, set up in one batch per namespace
# for the switch); $WORK/host.conf, a balance-rr bond of both with the link
# check, for lc_start.
lc_cluster() {
	local sw=$1 h sw_batch="" br_batch=""
	shift
	for h in "$@"; do
		NS[$h]=$(peer_ns "$h")
		ip -n "${NS[$h]}" -batch - <<<"link add e1 type veth peer name ${h}1 netns $sw
link add e2 type veth peer name ${h}2 netns $sw"
		sw_batch+="link set ${h}1 mtu 9000 master br0 up"$'\n'"link set ${h}2 mtu 9000 master br0 up"$'\n'
		br_batch+="vlan add dev ${h}1 vid 10 pvid untagged"$'\n'"vlan add dev ${h}2 vid 20 pvid untagged"$'\n'
	done
	ip -n "$sw" -batch - <<<"$sw_batch"
	bridge -n "$sw" -batch - <<<"$br_batch"
	printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\nlink_check = yes\n' \
		>"$WORK/host.conf"
}

# lc_vlan SW PORT VID...: moves switch ports into VLANs (one each, untagged).
lc_vlan() {
	local sw=$1 batch="" port vid
	shift
	while (($#)); do
		port=$1 vid=$2
		shift 2
		batch+="vlan del dev $port vid ${LC_VID[$port]}"$'\n'
		batch+="vlan add dev $port vid $vid pvid untagged"$'\n'
		LC_VID[$port]=$vid
	done
	bridge -n "$sw" -batch - <<<"$batch"
}

# lc_recreate SW NS LETTER N: NIC eN of host NS deleted and created again (a
# NIC reset), its switch port set up before it comes up, as a switch's
# would be.  Returns with the port down: `ip -n SW link set LETTERN up` is
# the moment the NIC is back.
lc_recreate() {
	local sw=$1 ns=$2 h=$3 n=$4
	ip -n "$ns" link del "e$n"
	ip -n "$ns" link add "e$n" type veth peer name "$h$n" netns "$sw"
	ip -n "$sw" link set "$h$n" mtu 9000 master br0
	bridge -n "$sw" vlan add dev "$h$n" vid "${LC_VID[$h$n]}" pvid untagged
}

# The config every host runs.
lc_conf() {
	printf '[bond0]\nmode = balance-rr\nmiimon = 100\nmtu = 9000\nslaves = e1 e2 e3 e4\nlink_check = yes\n' >"$1"
}

# lc_json_whole JSON IFINDEX: true when the bondd --json document JSON (a
# string) shows a whole matrix for 4 slaves and 2 peers, with the slave at
# place 2 at IFINDEX; bash only, no process.
lc_json_whole() {
	local n
	[[ $1 == *"\"slave\":\"e2\",\"position\":2,\"ifindex\":$2,"* ]] || return 1
	lc_json_answered "$1" n
	((n == 8))
}

# lc_json_answered JSON VAR: sets VAR to the number of paths in the bondd
# --json document JSON answered at every size; bash only, no process.
lc_json_answered() {
	local pat='"answered":["small","standard","full"]' rest
	rest=${1//"$pat"/}
	printf -v "$2" '%d' $(((${#1} - ${#rest}) / ${#pat}))
}

# lc_whole HOST N: HOST's bondd shows N paths answered at every size.
lc_whole() {
	local json n
	json=$("$BONDD_STATUS" --socket "$WORK/$1.sock" --json) || true
	lc_json_answered "$json" n
	((n == $2))
}

# lc_all_whole N HOST...: lc_whole for every HOST.
lc_all_whole() {
	local n=$1 h
	shift
	for h in "$@"; do lc_whole "$h" "$n" || return 1; done
}

# lc_json_num JSON KEY: the first number after "KEY": in JSON.
lc_json_num() {
	local re="\"$2\":([0-9]+)"
	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[1]}"
}

# lc_start CONF HOST...: bondd in each host's namespace NS[HOST] (an
# associative array of the caller's), all at once, with --debug logs in
# $WORK/HOST.log and sockets $WORK/HOST.sock; PID[HOST] their pids, and
# lc_stop (set as the EXIT trap by the caller) ends them.
declare -gA PID
lc_start() {
	local conf=$1 h
	shift
	for h in "$@"; do
		: >"$WORK/$h.log"
		ip netns exec "${NS[$h]}" "$BONDD" --config "$conf" --socket "$WORK/$h.sock" \
			--debug >>"$WORK/$h.log" 2>&1 &
		PID[$h]=$!
	done
}
lc_stop() {
	local h
	for h in "${!PID[@]}"; do kill -TERM "${PID[$h]}" 2>/dev/null || true; done
	for h in "${!PID[@]}"; do wait "${PID[$h]}" 2>/dev/null || true; done
	bondd_cleanup
}
# lc_health HOST: bondd-status's exit code on HOST (0 healthy, 1 degraded).
lc_health() {
	local rc=0
	"$BONDD_STATUS" --socket "$WORK/$1.sock" >/dev/null 2>&1 || rc=$?
	return $rc
}
# lc_all_healthy HOST...: every host's bond healthy now.
lc_all_healthy() {
	local h
	for h in "$@"; do lc_health "$h" || return 1; done
}
# lc_settled HOST: HOST's last check ended with no re-check due (its
# last "link check done" line, or the line saying that the peers owed a
# check answered without one, says "next check on a change"), and its
# status agrees (no re-check due, no check owed to peers' wishes:
# "settling" false in --json).
lc_settled() {
	local line="" l json
	while IFS= read -r l; do
		[[ $l == *"link check"*"next check "* ]] && line=$l
	done <"$WORK/$1.log"
	[[ $line == *"next check on a change"* ]] || return 1
	json=$("$BONDD_STATUS" --socket "$WORK/$1.sock" --json 2>/dev/null) || true
	[[ $json == *'"settling":false'* && $json != *'"settling":true'* ]]
}
# lc_all_settled HOST...: lc_settled for every HOST.
lc_all_settled() {
	local h
	for h in "$@"; do lc_settled "$h" || return 1; done
}
# lc_show_logs HOST...: the tail of each host's log.
lc_show_logs() {
	local h
	for h in "$@"; do
		echo "--- bondd log of host $h ---"
		tail -n 40 "$WORK/$h.log"
	done
}
# lc_health_is HOST CODE: HOST's health is CODE.
lc_health_is() {
	local rc=0
	lc_health "$1" || rc=$?
	[ "$rc" -eq "$2" ]
}
