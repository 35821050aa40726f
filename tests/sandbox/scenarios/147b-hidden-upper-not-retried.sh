# SPDX-License-Identifier: MIT
# Do no harm: a NIC whose macvlan lives in a container's namespace (Docker's
# macvlan networks), named as a slave by mistake.  From bondd's namespace
# the macvlan cannot be seen, so the first enslave is tried: bondd sets e2
# down, the kernel refuses ("Device is in use", the macvlan's rx_handler)
# and bondd sets e2 up again.  It must not do that again while nothing
# changes: every retry took the container's network down.  Status keeps
# the kernel's reason; a reload tries again.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
CT=$(peer_ns ct)
ip -batch - <<BATCH
link add link e2 name mv2 type macvlan mode bridge
link set mv2 netns $CT
link set e2 up
BATCH
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1 9000 >/dev/null
wait_log "e2: enslaving it to bond0 refused by the kernel" 1 5 || { show_log; fail "no refusal"; }
# Retries would come at 100, 200, 400, 800 and 1600 ms.
nap 3
downs=$(log_count "apply: link-down e2 ")
echo "measured: $downs admin-down requests on e2 in 3 s"
assert_eq 1 "$downs" "admin-down requests on e2"
flags=$(sysval /sys/class/net/e2/flags)
((flags & 1)) || fail "e2 left down (flags $flags)"
{ status --brief || true; } | grep -q "Device or resource busy" || { status --brief; fail "--brief lacks the kernel's reason"; }
# The event record says what the log says, before the kernel's long
# message (it said "retrying in 100 ms", and after it, cut off at 200 bytes).
events=$(status --json bond0 || true)
grep -q 'failed, not tried again until e2 is re-created or bondd reloads: enslaving' <<<"$events" ||
	{ echo "$events"; fail "the event record does not say e2 is not tried again"; }
# The kernel's own words (the extended ACK of drivers/net/bonding/bond_main.c
# bond_enslave), which libnl drops: kept by the executor's NL_CB_MSG_IN hook.
grep -q '"last_error":{[^}]*Device is in use and cannot be enslaved' <<<"$events" ||
	{ echo "$events"; fail "the kernel's extended ACK is not in last_error"; }
kill -HUP "$BONDD_PID"
wait_log "reloaded" 1 10 || fail "no reload"
wait_log "apply: link-down e2 " 2 2 || { show_log; fail "a reload did not try e2 again"; }
wait_log "e2: enslaving it to bond0 refused by the kernel" 2 5 || { show_log; fail "no second refusal"; }
# e2 re-created (the container and its macvlan gone with the old one):
# taken at once.
ip link del e2
nics 1 2
whole_within 1000 bond0 e1,e2 9000
file_has "$BONDD_LOG" "e2: a new device: enslaving it is tried again" || { show_log; fail "not logged"; }
