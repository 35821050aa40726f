# SPDX-License-Identifier: MIT
# Issue 11: absent attributes.  A bondd in a container (its own user
# namespace, owning its network namespace) is never told ad_actor_sys_prio,
# ad_user_port_key and ad_actor_system: drivers/net/bonding/bond_netlink.c
# bond_fill_info puts them only for capable(CAP_NET_ADMIN), in the initial
# user namespace; events the kernel's own workers cause do carry them.  A
# converged 802.3ad bond must get zero option writes and zero rebuilds
# from what it cannot see, over 20 s of events.
if [[ ${1:-} != inside ]]; then
	. "$LIB_DIR/lib.sh"
	command -v unshare >/dev/null || skip "no unshare"
	unshare --user --map-root-user --net --mount true 2>/dev/null ||
		skip "user namespaces are not available"
	exec unshare --user --map-root-user --net --mount bash "$0" inside
fi
. "$LIB_DIR/lib.sh"
mount -t sysfs none /sys || fail "cannot mount sysfs for the new namespace"
. "$LIB_DIR/bondd-lib.sh"

ip link set lo up
ip -batch - <<'B'
link add e1 type veth peer name p1
link add e2 type veth peer name p2
link set p1 up
link set p2 up
B
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = 802.3ad
miimon = 100
ad_actor_sys_prio = 100
ad_user_port_key = 7
ad_actor_system = 02:00:00:00:00:07
mtu = 9000
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
# (sysfs hides these three from this bondd too: bond_sysfs.c checks capable().)
assert_eq "802.3ad 4" "$(sysval /sys/class/net/bond0/bonding/mode)" "mode"
nap 1
before=$(log_count "apply:")

events=""
for ((i = 0; i < 10; i++)); do events+="link add u$i type dummy"$'\n'"link set u$i up"$'\n'; done
events+="link set p1 down"$'\n'"link set p1 up"$'\n'"link set u0 mtu 1400"$'\n'
# A change bondd does not manage, made from this namespace: the kernel
# announces bond0 from this process, without the three options.
events+="link set bond0 alias storage"$'\n'"link set bond0 alias backup"$'\n'
for ((i = 0; i < 10; i++)); do events+="link del u$i"$'\n'; done
end=$((EPOCHSECONDS + 20)) rounds=0
while ((EPOCHSECONDS < end)); do
	ip -batch - <<<"$events"
	rounds=$((rounds + 1))
	nap 0.2
done
bondd_settle
after=$(log_count "apply:")
echo "measured: $((after - before)) kernel writes over $rounds rounds ($((rounds * 35)) link changes) in 20 s"
assert_eq "$before" "$after" "kernel writes for options bondd cannot see"
assert_eq 0 "$(log_count "rebuild")" "rebuilds"
# No LACP partner answers here, so health is degraded for that reason
# alone (issue 13's LACP rule); anything else is a failure.
rc=0
out=$(status --brief) || rc=$?
echo "$out"
((rc == 0)) || { ((rc == 1)) && [[ $out == *LACP* || $out == *aggregator* ]]; } ||
	{ show_log; fail "bond0 not healthy (exit $rc) for a reason other than its missing LACP partner"; }
wait_log "this kernel does not report" 1 3 ||
	{ show_log; fail "bondd did not say which options it cannot see"; }
out=$("$BONDD" --check --config "$WORK/bondd.conf" 2>&1) || fail "--check: $out"
[[ $out == *"bondd.conf:1: warning: [bond0]: this kernel does not report ad_actor_sys_prio, ad_user_port_key, ad_actor_system"* ]] ||
	fail "--check did not name the options this kernel does not report: $out"
