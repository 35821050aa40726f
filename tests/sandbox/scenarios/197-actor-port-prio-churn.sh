# SPDX-License-Identifier: MIT
# Issue 23, the per-slave 802.3ad settings of newer kernels: an 802.3ad bond
# with an LACP partner and slave.e2.actor_port_prio = 100 in the config.
# The kernel's own reply (nl-bondopt, not bondd's parser) shows 100 on e2
# and 255 (the kernel's default) on e1; bondd-status --json shows the same,
# and the churn states exactly as /proc/net/bonding names them; Prometheus
# has them, also once the kernel's churn machine has left "monitoring"
# (60 s after the port started, with no netlink message: fails on the
# code that showed the last RTM_NEWLINK's states).  A reload to 200
# changes e2 in place: no release, same ifindex.  Skips on a kernel that
# does not report actor_port_prio (mainline before 6.18 without the stable
# backport; Debian's 6.1.176 and 6.12.113 have it).
# scenario-timeout: 240
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
NLOPT=$BUILD_DIR/tests/sandbox/nl-bondopt

# slave_attr DEV NAME: the attribute's value in DEV's RTM_GETLINK reply.
slave_attr() {
	local name value out
	out=$("$NLOPT" get "$1") || fail "nl-bondopt get $1 failed"
	while read -r name value; do
		[[ $name == "$2" ]] && { echo "$value"; return 0; }
	done <<<"$out"
	echo "absent"
}

nics 2
# The partner: an 802.3ad bond over the far ends.
ip -n "$PEER" -batch - <<'B'
link add pad type bond mode 802.3ad miimon 100 lacp_rate fast
link set p1 down
link set p2 down
link set p1 master pad
link set p2 master pad
link set pad up
B
conf() {
	cat <<CONF
[bond0]
mode = 802.3ad
miimon = 100
lacp_rate = fast
mtu = 1500
slaves = e1 e2
slave.e2.actor_port_prio = $1
CONF
}
conf 100 >"$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
[[ $(slave_attr e1 actor_port_prio) != absent ]] ||
	skip "kernel $(uname -r) does not report actor_port_prio (mainline 6.18 and later, or a stable kernel that took it)"
# Healthy: both ports in the active aggregator, the partner in sync.
healthy() { status --brief bond0 >/dev/null; }
wait_until 30 healthy || { status --brief || true; cat /proc/net/bonding/bond0; fail "not healthy"; }

assert_eq 100 "$(slave_attr e2 actor_port_prio)" "e2's actor_port_prio in the kernel"
assert_eq 255 "$(slave_attr e1 actor_port_prio)" "e1's actor_port_prio in the kernel"
json=$(status --json) || fail "bondd-status --json: status $? (the bond should be healthy)"
[[ $json == *'"name":"e2",'*'"ad_actor_port_prio":100,'* ]] ||
	{ echo "$json"; fail "--json lacks e2's actor_port_prio 100"; }
# The churn states: as /proc names them ("Actor Churn State: monitoring").
# The kernel's churn machine moves on by itself (bond_3ad.c
# ad_churn_machine: "monitoring" until its timer ends, then "none" or
# "churned"), so /proc is read before and after the --json request: a
# reply compared with a /proc that moved in between proves nothing either
# way, and is asked again (a --json that disagrees with a /proc that held
# still across it fails, as does one that never catches a still pair).
e1_churn() { # sets CHURN to e1's "actor, partner" in /proc/net/bonding/bond0
	local proc actor partner
	proc_bond bond0
	proc=${PROC_BOND#*Slave Interface: e1}
	actor=${proc#*Actor Churn State: }
	actor=${actor%%$'\n'*}
	partner=${proc#*Partner Churn State: }
	partner=${partner%%$'\n'*}
	CHURN="$actor, $partner"
}
churn_agrees() { # 0: agrees; 1: /proc moved, ask again; 2: disagrees
	local before
	e1_churn
	before=$CHURN
	json=$(status --json) || fail "bondd-status --json: status $? (the bond should be healthy)"
	e1_churn
	[[ $before == "$CHURN" ]] || return 1
	[[ $json == *'"name":"e1",'*"\"ad_churn_actor_state\":\"${CHURN%, *}\",\"ad_churn_partner_state\":\"${CHURN#*, }\""* ]] || return 2
}
churn_check() {
	local tries=0 rc
	while :; do
		rc=0
		churn_agrees || rc=$?
		((rc == 1 && ++tries < 20)) || break
	done
	((rc == 0)) || { echo "$json"; cat /proc/net/bonding/bond0; fail "--json's churn states of e1 are not /proc's ($CHURN; /proc moved during $tries of the requests)"; }
}
has_churn=0
if [[ $(slave_attr e1 ad_churn_actor_state) != absent ]]; then
	has_churn=1
	churn_check
	prom=$(status --prometheus)
	[[ $prom == *'bondd_slave_ad_actor_churned{master="bond0",device="e1"} '[01]* ]] ||
		fail "no bondd_slave_ad_actor_churned for e1"
	echo "churn states of e1 as /proc names them: $CHURN"
else
	echo "kernel $(uname -r) does not report the churn states: not checked"
fi
[[ $(status --prometheus) == *'bondd_slave_ad_actor_port_priority{master="bond0",device="e2"} 100'* ]] ||
	fail "no bondd_slave_ad_actor_port_priority 100 for e2"

# A reload to 200: in place, watched from outside.
index=$(sysval /sys/class/net/bond0/ifindex)
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 1500 --after-new never0 --timeout 4 --verbose \
	>"$WORK/watch.out" 2>"$WORK/watch.err" &
watch=$!
wait_until 5 file_has "$WORK/watch.out" watching || fail "bondwatch did not start"
conf 200 >"$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
wait_until 5 eval '[[ $(slave_attr e2 actor_port_prio) == 200 ]]' ||
	{ show_log; fail "e2's actor_port_prio is $(slave_attr e2 actor_port_prio) after the reload"; }
wait "$watch" || true
while read -r _ _ what name _ _ _ master _; do
	[[ $name == e1 || $name == e2 ]] || continue
	[[ $what == gone ]] && fail "$name was deleted during the reload"
	[[ $master == 0 ]] && fail "$name was released during the reload"
done <"$WORK/watch.err"
assert_eq "$index" "$(sysval /sys/class/net/bond0/ifindex)" "bond0 ifindex"
file_has "$BONDD_LOG" "apply: set slave e2 actor_port_prio (option)" || { show_log; fail "not logged"; }
echo "actor_port_prio changed in place by a reload: 100 -> 200"

# The churn machine leaves "monitoring" when its timer ends, 60 s after
# the port started (drivers/net/bonding/bond_3ad.c ad_churn_machine), and
# no netlink message says so: --json must still name what /proc names.
if ((has_churn)); then
	left_monitoring() { e1_churn; [[ $CHURN != "monitoring, "* ]]; }
	wait_until 120 left_monitoring || fail "e1's actor churn state is still monitoring after 120 s"
	churn_check
	echo "after the churn timer: --json and /proc agree on e1: $CHURN"
fi
