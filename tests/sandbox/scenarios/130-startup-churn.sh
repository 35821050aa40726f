# SPDX-License-Identifier: MIT
# Issue 11: start-up under churn.  500 links, and others coming and going
# while bondd starts (a boot with udev at work): the first dump is
# interrupted (NLM_F_DUMP_INTR) again and again; bondd must take it again
# until it holds, start every time, and converge.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
many=""
for ((i = 0; i < 496; i++)); do many+="link add x$i type dummy"$'\n'; done
ip -batch - <<<"$many"
n=$(ip -o link show | wc -l)
echo "measured: $n links in the namespace"
((n >= 500)) || fail "only $n links"

# The churn: 40 links created and deleted per batch, for as long as it runs.
churn=""
for ((i = 0; i < 40; i++)); do churn+="link add c$i type dummy"$'\n'; done
for ((i = 0; i < 40; i++)); do churn+="link del c$i"$'\n'; done
( while :; do ip -batch - <<<"$churn" >/dev/null 2>&1 || true; done ) &
CHURN=$!
stop_churn() { kill "$CHURN" 2>/dev/null || true; wait "$CHURN" 2>/dev/null || true; }
trap 'stop_churn; bondd_cleanup' EXIT

standard_conf "$WORK/bondd.conf"
for round in 1 2 3 4 5; do
	t0=${EPOCHREALTIME//[!0-9]/}
	"$BONDD" --config "$WORK/bondd.conf" --socket "$SOCK" --debug >>"$BONDD_LOG" 2>&1 &
	BONDD_PID=$!
	wait_log "$READY" "$round" 20 || { stop_churn; show_log; fail "start $round: bondd did not become ready"; }
	t1=${EPOCHREALTIME//[!0-9]/}
	kill -0 "$BONDD_PID" || { show_log; fail "start $round: bondd exited"; }
	whole bond0 e1,e2,e3,e4 9000 >/dev/null
	echo "measured: start $round ready after $(((t1 - t0) / 1000)) ms under churn"
	stop_bondd
done
stop_churn
echo "measured: $(log_count "NLM_F_DUMP_INTR") interrupted dumps over 5 starts"
# Start-up reads only ("re-reading links:" is the running bondd's re-read,
# which may be interrupted under churn and is retried on a timer).
(($(log_count "bondd: error: reading links:") + $(log_count "bondd: warning: reading links:") -
	$(log_count "bondd: warning: reading links: Interrupted system call; trying again") == 0)) ||
	{ show_log; fail "a start-up dump failed"; }
