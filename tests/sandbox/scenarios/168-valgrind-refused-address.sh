# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# The paths of a refused address under valgrind's memcheck: the address
# held on its own with backoff, a slave re-created and repaired meanwhile,
# health naming the refusal, then a clean SIGTERM.  Any valgrind report
# fails it.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
echo "address = fd00:77::1/64" >>"$WORK/bondd.conf"
ip -batch - <<'BATCH'
link add bond0 type bond mode balance-rr miimon 100
link set bond0 mtu 9000
addr add fd00:77::1/48 dev bond0 nodad
BATCH
start_valgrind_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond0 not whole"; }
wait_log "retrying in 400 ms" 1 60 || { show_log; fail "the refused address was not retried with backoff"; }
ip link del e2
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p2 up
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "re-created slave not repaired"; }
refusal_shown() {
	local rc=0
	"$BONDD_STATUS" --socket "$SOCK" --brief bond0 >"$WORK/brief" || rc=$?
	((rc == 1)) && file_has "$WORK/brief" "address fd00:77::1/64 refused by the kernel"
}
wait_until 60 refusal_shown || { cat "$WORK/brief"; show_log; fail "health does not show the refused address"; }
"$BONDD_STATUS" --socket "$SOCK" --json >/dev/null || true
valgrind_verdict
