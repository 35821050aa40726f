# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# bondd under valgrind's memcheck through a whole life: a cold start, two
# repairs (a slave released, the bond deleted), a reload that changes the
# MTU and a slave, every kind of status query, the link check tried again
# with no peer, and a clean SIGTERM.  Any
# valgrind report fails it: an uninitialised byte sent to the kernel, an
# invalid access, a leak.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"

nics 5
# More options than the standard bond: u8 and u16 options are where
# netlink attribute padding lives.
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
updelay = 200
packets_per_slave = 2
mtu = 9000
slaves = e1 e2 e3 e4
address = 10.77.0.1/24
address = fd00:77::1/64
[bond1]
mode = active-backup
miimon = 100
primary = e5
slave.e5.prio = 3
slaves = e5
CONF
start_valgrind_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond0 not whole"; }
"$BONDWATCH" --bond bond1 --slaves e5 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond1 not whole"; }

# Repairs: a slave released by hand, then the bond deleted.
ip link set e2 nomaster
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "released slave not repaired"; }
ip link del bond0
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "deleted bond not repaired"; }

# A reload: another MTU, another slave set.
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
updelay = 200
packets_per_slave = 2
mtu = 4000
slaves = e1 e3 e4
address = 10.77.0.1/24
CONF
kill -HUP "$BONDD_PID"
wait_log reloaded 1 60 || { show_log; fail "no reload"; }
"$BONDWATCH" --bond bond0 --slaves e1,e3,e4 --mtu 4000 --timeout 60 >/dev/null ||
	{ show_log; fail "reloaded bond0 not whole"; }

# Every kind of query (exit status 0-2 is a health, 3 unreachable).
for args in "" "--brief" "--json" "--prometheus" "--brief bond0" "--json nosuchbond"; do
	rc=0
	# shellcheck disable=SC2086 # words of the arguments
	"$BONDD_STATUS" --socket "$SOCK" $args >"$WORK/status.out" 2>&1 || rc=$?
	if [[ $args == *nosuchbond* ]]; then
		((rc == 3)) || fail "bondd-status $args: exit $rc, expected 3 (unknown bond)"
	else
		((rc <= 2)) || { cat "$WORK/status.out"; fail "bondd-status $args: exit $rc"; }
	fi
done

# bond0's link check hears no peer here (no bondd behind e1..e4): it is
# tried again 5 s after its check (bondd(8), LINK CHECK), under valgrind too.
wait_log "ms (no peer yet)" 1 30 ||
	{ show_log; fail "bond0's link check, with no peer, was not tried again"; }

valgrind_verdict
