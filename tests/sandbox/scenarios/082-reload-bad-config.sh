# SPDX-License-Identifier: MIT
# Behaviour 8, bad input: a reload with a broken config keeps the running
# config, says why with FILE:LINE, and changes nothing.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
standard_conf "$WORK/bondd.conf"
sed -i 's/slaves = e1 e2 e3 e4/slaves = e1 e2/' "$WORK/bondd.conf"
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
before=$(counters bond0)
writes=$(log_count "apply:")

printf '[bond0]\nmiimon = 100\nmtu = 99999\nslaves = e1\nbogus = 1\n' >"$WORK/bondd.conf"
kill -HUP "$BONDD_PID"
wait_log "keeping the running configuration" 1 10 || { show_log; fail "bad reload not reported"; }
file_has "$BONDD_LOG" "bondd.conf:3:" || { show_log; fail "no FILE:LINE for the MTU"; }
file_has "$BONDD_LOG" "bondd.conf:5:" || { show_log; fail "no FILE:LINE for the unknown key"; }
assert_eq "$writes" "$(log_count "apply:")" "writes after a bad reload"
assert_eq "$before" "$(counters bond0)" "the bond after a bad reload"

# And the daemon still repairs with the old config.
ip link set e2 nomaster
whole bond0 e1,e2 9000 >/dev/null
