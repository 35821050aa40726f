# SPDX-License-Identifier: MIT
# Do no harm, hostile admin: (1) a slave set admin-down by the admin for
# maintenance stays down and in its bond, through an unrelated repair and a
# reload; (2) a section whose name is an existing non-bond link ([e5], a
# typo for a bond) changes nothing on e5 nor on the slaves it names, even
# with state = absent after a reload; (3) a stranger enslaved by hand into
# bond0 (released, as bondd(8) says), then state = absent: bond0 deleted
# as asked and the stranger left free.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 7
ip link set e5 up
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
mtu = 1500
slaves = e1 e2

[e5]
miimon = 100
mtu = 1500
slaves = e6 e7
CONF
look() {
	local d out=""
	for d in "$@"; do
		out+="$d flags=$(sysval /sys/class/net/$d/flags) mtu=$(sysval /sys/class/net/$d/mtu)"
		out+=" master=$([ -e /sys/class/net/$d/master ] && echo yes || echo no); "
	done
	printf '%s' "$out"
}
before=$(look e5 e6 e7)
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 1500 >/dev/null
bondd_settle
assert_eq "$before" "$(look e5 e6 e7)" "e5 and the slaves named under it"
file_has "$BONDD_LOG" "exists and is not a bond" || { show_log; fail "no note for [e5]"; }

# (1) e2 down for maintenance, then an unrelated repair and a reload.
ip link set e2 down
nap 0.3
ip link set bond0 mtu 1400
bond_mtu_back() { [ "$(sysval /sys/class/net/bond0/mtu)" = 1500 ]; }
bondd_settle # the repair is made in the turn that handles the event
bond_mtu_back || { show_log; fail "bond0's MTU not repaired once bondd settled"; }
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
bondd_settle
flags=$(sysval /sys/class/net/e2/flags)
((!(flags & 1))) || { show_log; fail "e2, down for maintenance, was set up (flags $flags)"; }
[ -e /sys/class/net/e2/master ] || { show_log; fail "e2 was released"; }
assert_eq 0 "$(log_count "apply: link-up e2")" "link-up requests on e2"

# (2) state = absent under the typo'd name.
sed -i 's/^slaves = e6 e7$/state = absent/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 2 10 || fail "no second reload"
bondd_settle
assert_eq "$before" "$(look e5 e6 e7)" "e5 after state = absent"
assert_eq 0 "$(log_count "delete e5")" "deletes of e5"

# (3) a foreign slave in bond0, then bond0 absent.
ip link set e3 down
ip link set e3 master bond0
bondd_settle
sed -i '0,/^slaves = e1 e2$/s//state = absent/' "$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded" 3 10 || fail "no third reload"
gone() { [ ! -e /sys/class/net/bond0 ]; }
wait_until 1 gone || { show_log; fail "bond0 not deleted"; }
[ -e /sys/class/net/e3 ] || fail "e3 is gone"
[ ! -e /sys/class/net/e3/master ] || fail "e3 still has a master"
