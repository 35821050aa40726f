#!/bin/bash
# SPDX-License-Identifier: MIT
#
# linkcheck-scale.sh: what the link check costs as the cluster grows, in
# the sandbox kernel.  For each N of SCALE_HOSTS (4 16 64): N hosts
# (namespaces) of two slaves each behind one VLAN-aware bridge, every
# host's e1 in VLAN 10 and e2 in VLAN 20 (a right topology), a bondd on
# each, all started at once.  Measured, one JSON line per N to $RAW:
#   start_ms     from starting them to every host healthy and settled
#   hosts_warned_at_start  hosts that logged a link check warning by then
#                (false ones: the topology is right)
#   switch_drops_at_start  frames the guest kernel dropped by then (the
#                softnet backlog all veth ports share, net/core/dev.c
#                enqueue_to_backlog: the emulated switch's full buffer)
#   idle_wakeups the context switches of all N bondd over 10 idle seconds
#   check        one check asked of host a: its requests, the answers all
#                hosts sent for it, their echoes, the checks all hosts ran
#                meanwhile, the bytes of all (payloads), how long
#                it took and waited at most, and bondd's CPU time for it
#   settling_wakeups_per_min  host a's wake-ups per minute while a finding
#                keeps it re-checking (its e2 moved to a VLAN of its own)
# Boot it with tests/sandbox/uml-boot BUILD_DIR OUT bench/linkcheck-scale.sh
# RAW=FILE [SCALE_HOSTS=4,16] (commas: the kernel command line splits on spaces); the guest shares one CPU among all hosts.
. "$(dirname "$0")/../tests/sandbox/lib.sh"
trap - ERR
set +e
BONDD=$BUILD_DIR/src/bondd
STATUS=$BUILD_DIR/src/bondd-status
: "${RAW:?}" "${SCALE_HOSTS:=4,16,64}"
OUT=$(mktemp -d /var/tmp/lcscale.XXXXXX)

now_us() { REPLY=${EPOCHREALTIME//[!0-9]/}; }
num() { local re="\"$2\":([0-9]+)"; [[ $1 =~ $re ]] && echo "${BASH_REMATCH[1]}"; }
switches() { # switches PID...: their context switches, summed
	local p n=0 line
	for p in "$@"; do
		while IFS= read -r line; do
			[[ $line == *ctxt_switches:* ]] && n=$((n + ${line##*[[:space:]]}))
		done </proc/"$p"/status
	done
	echo "$n"
}
softnet_drops() { # the guest's frames dropped at a full input backlog, all CPUs
	local line f n=0
	while read -r -a f; do n=$((n + 16#${f[1]})); done </proc/net/softnet_stat
	echo "$n"
}
cpu_ms() { # cpu_ms PID: utime + stime in ms
	local f
	read -r -a f </proc/"$1"/stat
	echo $(((f[13] + f[14]) * 1000 / $(getconf CLK_TCK)))
}

for n in ${SCALE_HOSTS//,/ }; do
	ip netns add lcs-sw
	ip -n lcs-sw link add br0 type bridge vlan_filtering 1 vlan_default_pvid 0
	ip -n lcs-sw link set br0 up
	sw="" br=""
	hosts=()
	for ((i = 0; i < n; i++)); do
		h=h$i
		hosts+=("$h")
		ip netns add "lcs-$h"
		ip -n "lcs-$h" -batch - <<<"link add e1 type veth peer name ${h}x1 netns lcs-sw
link add e2 type veth peer name ${h}x2 netns lcs-sw"
		sw+="link set ${h}x1 mtu 9000 master br0 up"$'\n'"link set ${h}x2 mtu 9000 master br0 up"$'\n'
		br+="vlan add dev ${h}x1 vid 10 pvid untagged"$'\n'"vlan add dev ${h}x2 vid 20 pvid untagged"$'\n'
	done
	ip -n lcs-sw -batch - <<<"$sw"
	bridge -n lcs-sw -batch - <<<"$br"
	printf '[bond0]\nmode = balance-rr\nmtu = 9000\nslaves = e1 e2\nlink_check = yes\n' >"$OUT/c.conf"
	declare -A PID=()
	d0=$(softnet_drops)
	now_us; t0=$REPLY
	for h in "${hosts[@]}"; do
		ip netns exec "lcs-$h" "$BONDD" --config "$OUT/c.conf" --socket "$OUT/$h.sock" \
			>"$OUT/$h.log" 2>&1 &
		PID[$h]=$!
	done
	settled() {
		local h j
		for h in "${hosts[@]}"; do
			j=$("$STATUS" --socket "$OUT/$h.sock" --json 2>/dev/null) || return 1
			[[ $j == *'"settling":false'* && $j == *'"health":"healthy"'* ]] || return 1
			[ "$(num "$j" checks)" -ge 1 ] || return 1
		done
	}
	wait_until 300 settled
	ok=$?
	now_us; start_ms=$(((REPLY - t0) / 1000))
	drops=$(($(softnet_drops) - d0))
	# hosts that logged a link check warning while starting (a right
	# topology: every one is false)
	warned=0
	for h in "${hosts[@]}"; do
		grep -q 'warning: .*link check' "$OUT/$h.log" && warned=$((warned + 1))
	done
	nap 2
	w0=$(switches "${PID[@]}")
	nap 10
	w1=$(switches "${PID[@]}")
	# one check asked of host a, the answers of all hosts counted
	sum_answers() { # answers, echoes and checks of all hosts, summed
		local h s=0 e=0 c=0 j
		for h in "${hosts[@]}"; do
			j=$("$STATUS" --socket "$OUT/$h.sock" --json 2>/dev/null)
			s=$((s + $(num "$j" answers_sent)))
			e=$((e + $(num "$j" echoes_sent)))
			c=$((c + $(num "$j" checks)))
		done
		echo "$s $e $c"
	}
	a=${hosts[0]}
	j0=$("$STATUS" --socket "$OUT/$a.sock" --json)
	read -r s0 e0 k0 <<<"$(sum_answers)"
	c0=$(cpu_ms "${PID[$a]}")
	"$STATUS" --socket "$OUT/$a.sock" --link-check >/dev/null 2>&1
	c1=$(cpu_ms "${PID[$a]}")
	nap 1
	read -r s1 e1 k1 <<<"$(sum_answers)"
	j1=$("$STATUS" --socket "$OUT/$a.sock" --json)
	req=$(($(num "$j1" requests_total) - $(num "$j0" requests_total)))
	ans=$((s1 - s0))
	# payload bytes: each slave sends 128, 1500 and 9000; answers match
	bytes=$(((req + ans) * (128 + 1500 + 9000) / 3 + (e1 - e0) * 128))
	# a finding: a's e2 alone in VLAN 99; a keeps re-checking
	bridge -n lcs-sw -batch - <<<"vlan del dev ${a}x2 vid 20
vlan add dev ${a}x2 vid 99 pvid untagged"
	"$STATUS" --socket "$OUT/$a.sock" --link-check >/dev/null 2>&1
	p0=$(switches "${PID[$a]}")
	nap 30
	p1=$(switches "${PID[$a]}")
	echo "{\"part\": \"linkcheck-scale\", \"hosts\": $n, \"slaves\": 2, \"settled\": $((ok == 0 ? 1 : 0)), \"start_ms\": $start_ms, \"hosts_warned_at_start\": $warned, \"switch_drops_at_start\": $drops, \"idle_wakeups_10s\": $((w1 - w0)), \"check\": {\"requests\": $req, \"answers\": $ans, \"echoes\": $((e1 - e0)), \"checks_all_hosts\": $((k1 - k0)), \"payload_bytes\": $bytes, \"took_ms\": $(num "$j1" took_ms), \"wait_ms\": $(num "$j1" wait_ms), \"cpu_ms\": $((c1 - c0))}, \"settling_wakeups_per_min\": $(((p1 - p0) * 2))}" | tee -a "$RAW"
	for h in "${hosts[@]}"; do kill "${PID[$h]}"; done
	for h in "${hosts[@]}"; do wait "${PID[$h]}"; done
	for h in "${hosts[@]}"; do ip netns del "lcs-$h"; done
	ip netns del lcs-sw
	unset PID
done
rm -rf "$OUT"
exit 0
