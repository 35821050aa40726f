# SPDX-License-Identifier: MIT
# Do no harm, hostile admin: a NIC that carries something is named as a
# slave by mistake.  e2 carries a VLAN (e2.100, the management VLAN with an
# address), e3 carries a macvlan (a container's), e4 carries an IPv4
# address of its own (the management NIC).  bondd enslaves e1 only and never
# changes e2..e4 or their uppers: not their flags, MTU or master; status
# and the log say why each is not enslaved.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
ip -batch - <<'BATCH'
link add link e2 name e2.100 type vlan id 100
link add link e3 name mv3 type macvlan mode bridge
link set e2 up
link set e3 up
link set e4 up
link set e2.100 up
link set mv3 up
addr add 192.0.2.2/24 dev e2.100
addr add 198.51.100.4/24 dev e4
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2 e3 e4
CONF
state() {
	local d out=""
	for d in e2 e2.100 e3 mv3 e4; do
		out+="$d flags=$(sysval /sys/class/net/$d/flags) mtu=$(sysval /sys/class/net/$d/mtu)"
		out+=" master=$([ -e /sys/class/net/$d/master ] && echo yes || echo no); "
	done
	printf '%s' "$out"
}
before=$(state)
start_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1 --mtu 9000 --timeout 3 >/dev/null || { show_log; ip -d link; fail "bond0 is not e1 alone"; }
bondd_settle
assert_eq "$before" "$(state)" "e2, e3, e4 and their uppers"
for d in e2 e3 e4; do
	assert_eq 0 "$(log_count "apply: link-down $d ")" "admin-down requests on $d"
	assert_eq 0 "$(log_count "enslave $d ")" "enslave requests for $d"
done
has_addr e2.100 192.0.2.2/24 || fail "e2.100 lost its address"
has_addr e4 198.51.100.4/24 || fail "e4 lost its address"
file_has "$BONDD_LOG" "e2: carries e2.100, not enslaving it" || { show_log; fail "no reason for e2"; }
file_has "$BONDD_LOG" "e3: carries mv3, not enslaving it" || { show_log; fail "no reason for e3"; }
file_has "$BONDD_LOG" "e4: carries address 198.51.100.4/24, not enslaving it" ||
	{ show_log; fail "no reason for e4"; }
{ status --brief || true; } | grep -q "e4: carries address" || fail "--brief has no reason for e4"
# What they carried removed: taken at once (an address's removal is an
# event too).
ip addr del 198.51.100.4/24 dev e4
whole_within 1000 bond0 e1,e4 9000
ip link del e2.100
whole_within 1000 bond0 e1,e2,e4 9000
