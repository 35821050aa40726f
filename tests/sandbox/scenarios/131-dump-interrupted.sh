# SPDX-License-Identifier: MIT
# Issue 11: churn.  300 links, a loop adding and deleting links, and a small
# event buffer so that bondd re-reads everything while links change: at
# least one of those dumps is interrupted (NLM_F_DUMP_INTR, counted and
# logged).  Afterwards every re-read works and a drift is repaired in 1 s.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
many=""
for ((i = 0; i < 296; i++)); do many+="link add x$i type dummy"$'\n'; done
ip -batch - <<<"$many"
standard_conf "$WORK/bondd.conf"
BONDD_EVENT_RCVBUF=2048 start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

churn=""
for ((i = 0; i < 40; i++)); do churn+="link add c$i type veth peer name d$i"$'\n'; done
for ((i = 0; i < 40; i++)); do churn+="link del c$i"$'\n'; done
# Stopped by a file between batches: a killed loop would leave its last
# ip -batch changing links after the churn is said to be over.
( while [[ ! -e $WORK/churn.stop ]]; do ip -batch - <<<"$churn" >/dev/null 2>&1 || true; done ) &
CHURN=$!
stop_churn() { touch "$WORK/churn.stop"; wait "$CHURN" 2>/dev/null || true; }
trap 'stop_churn; bondd_cleanup' EXIT
wait_log "NLM_F_DUMP_INTR" 1 20 || { stop_churn; show_log; fail "no dump was interrupted"; }
nap 1
stop_churn
echo "measured: $(log_count "NLM_F_DUMP_INTR") interrupted dumps, $(log_count "events were lost") overflows"

# Every re-read after the churn works: provoke some, then look.
burst=""
for ((i = 0; i < 100; i++)); do burst+="link add b$i type dummy"$'\n'"link set b$i up"$'\n'; done
ip -batch - <<<"$burst"
wait_until 10 status --brief >/dev/null || { status --brief; show_log; fail "bondd's picture is not whole after the churn"; }
status --brief
(($(log_count "Protocol error") == 0)) || { show_log; fail "netlink replies out of step"; }

watch_start bond0 e1,e2,e3,e4 9000 --after-mtu e3
ip link set e3 mtu 1500
watch_end
echo "measured: e3 back at MTU 9000 ${REPAIR_MS} ms after the change"
assert_within 1000 "repairing e3's MTU after the churn"
