# SPDX-License-Identifier: MIT
# Behaviour 10: interfaces and bonds not in the config are never touched,
# not even while bondd repairs its own bond next to them.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 6
ip -batch - <<'BATCH'
link add x0 type dummy
link set x0 mtu 1400
link set x0 up
link add fb0 type bond mode active-backup
link set e5 master fb0
link set fb0 up
BATCH
snapshot() {
	local i
	for i in x0 fb0 e5 e6; do
		printf '%s mtu=%s flags=%s changes=%s master=%s\n' "$i" \
			"$(sysval /sys/class/net/$i/mtu)" "$(sysval /sys/class/net/$i/flags)" \
			"$(sysval /sys/class/net/$i/carrier_changes)" \
			"$(readlink /sys/class/net/$i/master 2>/dev/null)"
	done
	printf 'fb0 slaves=%s mode=%s\n' "$(sysval /sys/class/net/fb0/bonding/slaves)" \
		"$(sysval /sys/class/net/fb0/bonding/mode)"
}
before=$(snapshot)

standard_conf "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
ip link del e2
ip link add e2 type veth peer name p2 netns "$PEER"
whole_within 1000 bond0 e1,e2,e3,e4 9000 >/dev/null
stop_bondd

assert_eq "$before" "$(snapshot)" "foreign interfaces"
