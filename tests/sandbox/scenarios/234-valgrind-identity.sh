# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# bondd under valgrind's memcheck with slaves named by mac:, path: and
# altname: a start, a slave renamed while enslaved, --json, a reload that
# names one link twice (refused), a NIC renamed into another entry's name
# and back, and a clean SIGTERM.  Any valgrind report fails it.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"
. "$LIB_DIR/vec-lib.sh"

vec_take 1 va 2 vb 3 vc
ip link property add dev vc altname third-port-of-this-host
conf=$WORK/bondd.conf
printf '[bond0]\nmode = active-backup\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1 third-port-of-this-host\nprimary = path:platform-uml-vector.1\n' \
	"$(vec_perm 2)" >"$conf"
start_valgrind_bondd "$conf"
"$BONDWATCH" --bond bond0 --slaves vb,va,vc --mtu 1500 --timeout 30 >/dev/null ||
	{ show_log; fail "bond0 did not become whole"; }

ip -batch - <<<"link set va down
link set va name va-renamed
link set va-renamed up"
wait_log "is now va-renamed (was va)" 1 30 || { show_log; fail "the rename was not followed"; }
primary_is() { [[ $(sysval /sys/class/net/bond0/bonding/primary) == va-renamed ]]; }
wait_until 30 primary_is || { show_log; fail "the primary did not follow"; }
status --json >/dev/null || true

printf '[bond0]\nmode = active-backup\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1 va-renamed\n' \
	"$(vec_perm 2)" >"$conf"
kill -HUP "$BONDD_PID"
wait_log "reload failed: keeping the running configuration" 1 30 || { show_log; fail "the reload"; }

printf '[bond0]\nmode = active-backup\nmiimon = 100\nmtu = 1500\nslaves = mac:%s path:platform-uml-vector.1 vz\n' \
	"$(vec_perm 2)" >"$conf"
kill -HUP "$BONDD_PID"
wait_log "reloaded: 1 bond" 1 30 || { show_log; fail "the good reload"; }
ip -batch - <<<"link set vb down
link set vb name vz
link set vz up"
wait_log "both name vz" 1 30 || { show_log; fail "the conflict was not reported"; }
ip -batch - <<<"link set vz down
link set vz name vb
link set vb up"
"$BONDWATCH" --bond bond0 --slaves vb,va-renamed --mtu 1500 --timeout 30 >/dev/null ||
	{ show_log; fail "bond0 is not vb,va-renamed"; }
valgrind_verdict
