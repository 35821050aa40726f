# SPDX-License-Identifier: MIT
# Issue 12, a reload cannot destroy by accident.  An empty file is refused
# (issue 21); a file cut at a line boundary leaves the bonds it no longer
# names in place, unmanaged; a file cut mid-line is refused; a FIFO given as the config is
# refused at once while repairs and status go on; 100 SIGHUPs while the
# file is rewritten in place and slaves flap end in the last file's state
# within 3 s of the watchers' start (two process starts and the flapper
# share the guest's one CPU).  Deleting takes "state = absent".  (On 717c04d the empty file
# deleted every bond and the FIFO blocked the daemon.)
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 5
CONF=$WORK/bondd.conf
full() {
	printf '[bond0]\nmtu = %s\nslaves = e1 e2\n[bond1]\nslaves = %s\n' "$1" "$2" >"$CONF"
}
full 9000 "e3 e4"
start_bondd "$CONF"
whole bond0 e1,e2 9000 >/dev/null
whole bond1 e3,e4 9000 >/dev/null
b0=$(counters bond0) b1=$(counters bond1)
reloads=0
hup() {
	reloads=$((reloads + 1))
	kill -HUP "$BONDD_PID"
	wait_log "${1:-reloaded}" "${2:-$reloads}" 10 || { show_log; fail "no reload ($1)"; }
}

# An empty file: refused while bonds are managed (issue 21; 194 has more),
# nothing deleted.
: >"$CONF"
kill -HUP "$BONDD_PID"
wait_log "reload refused: $CONF defines no bonds" 1 10 || { show_log; fail "empty file taken"; }
assert_eq "$b0" "$(counters bond0)" "bond0 after the empty file"
assert_eq "$b1" "$(counters bond1)" "bond1 after the empty file"
full 9000 "e3 e4"
hup

# Cut at a line boundary: bond1 is not named, so it is left as it is.
printf '[bond0]\nmtu = 9000\nslaves = e1 e2\n' >"$CONF"
hup
assert_eq "$b1" "$(counters bond1)" "bond1 after a file without it"
file_has "$BONDD_LOG" "bond1: no longer in $CONF: left in place" || { show_log; fail "not logged"; }
# Cut mid-line: refused, the running configuration kept.
printf '[bond0]\nmtu = 9000\nslaves = e1 e2\n[bond1]\nsla' >"$CONF"
refused=$(log_count "reload failed: keeping the running configuration")
kill -HUP "$BONDD_PID"
wait_log "reload failed: keeping the running configuration" $((refused + 1)) 10 || { show_log; fail "cut file not refused"; }
file_has "$BONDD_LOG" "the file may have been cut while being written" || fail "no reason given"
assert_eq "$b0" "$(counters bond0)" "bond0 after the cut file"
assert_eq "$b1" "$(counters bond1)" "bond1 after the cut file"

# A FIFO: refused at once; status and repairs go on.
full 9000 "e3 e4"
hup
rm -f "$CONF"
mkfifo "$CONF"
kill -HUP "$BONDD_PID"
wait_log "not a regular file" 1 2 || { show_log; fail "the FIFO was not refused at once"; }
status --brief >/dev/null || fail "no status after the FIFO"
ip link del e2
whole bond0 e1 9000 >/dev/null
watch_start bond0 e1,e2 9000 --after-new e2
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p2 up
watch_end
echo "measured: repair after the FIFO: ${REPAIR_MS} ms"
rm -f "$CONF"

# 100 SIGHUPs, the file rewritten in place each time, slaves flapping.
flapper() {
	trap - EXIT ERR # the scenario's cleanup is not this subshell's
	while :; do ip -n "$PEER" -batch - <<<$'link set p1 down\nlink set p3 down\nlink set p1 up\nlink set p3 up' || true; done
}
flapper &
FLAPPER=$!
for i in $(seq 1 99); do
	if ((i % 2)); then full 9000 "e3 e4"; else full 8000 "e3 e4 e5"; fi
	kill -HUP "$BONDD_PID"
done
# The 100th file is unlike any before, so only it can make the bonds whole
# as the watchers expect; they start (and their clocks with them) before
# the 100th SIGHUP.
full 7000 "e3 e5"
: >"$WORK/w0.out"
: >"$WORK/w1.out"
"$BONDWATCH" --bond bond0 --slaves e1,e2 --mtu 7000 --timeout 3 >"$WORK/w0.out" 2>&1 &
W0=$!
"$BONDWATCH" --bond bond1 --slaves e3,e5 --mtu 9000 --timeout 3 >"$WORK/w1.out" 2>&1 &
W1=$!
wait_until 5 file_has "$WORK/w0.out" watching || fail "bondwatch did not start"
wait_until 5 file_has "$WORK/w1.out" watching || fail "bondwatch did not start"
kill -HUP "$BONDD_PID"
ok=0
wait "$W0" || ok=1
wait "$W1" || ok=1
kill "$FLAPPER"
wait "$FLAPPER" 2>/dev/null || true
cat "$WORK/w0.out" "$WORK/w1.out" | sed 's/^/measured: last file: /'
((ok == 0)) || { show_log | grep -v carrier | tail -40; fail "not in the last file's state within 3 s"; }
assert_eq 7000 "$(sysval /sys/class/net/bond0/mtu)" "bond0 MTU"

# Deleting takes the explicit request.
printf '[bond0]\nmtu = 7000\nslaves = e1 e2\n[bond1]\nstate = absent\n' >"$CONF"
kill -HUP "$BONDD_PID"
wait_until 5 eval '[ ! -e /sys/class/net/bond1 ]' || { show_log; fail "bond1 not deleted by state = absent"; }
[ -e /sys/class/net/bond0 ] || fail "bond0 gone"
stop_bondd
