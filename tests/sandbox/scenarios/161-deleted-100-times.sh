# SPDX-License-Identifier: MIT
# scenario-timeout: 300
# A fight bondd must not give up: with bondd slowed down (under valgrind),
# its bond is deleted 100 times in a row, each time as soon as it exists
# again, so that wake-ups end at the pass limit with the bond missing.  Every
# round, the bond must be whole within 2 s of the last deletion (measured
# from the deletion, bondwatch's own start-up included), whatever the last
# wake-up saw.  (Before bondd retried after the pass limit, the bond stayed
# deleted within the first round.)  A round takes 30-45 s under valgrind
# in the UML guest: hence the longer time limit.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/valgrind-lib.sh"

: "${BONDKILL:=$BUILD_DIR/tests/sandbox/bondkill}"
ROUNDS=${ROUNDS:-2}
DELETIONS=${DELETIONS:-100}
BOUND_MS=2000

nics 4
standard_conf "$WORK/bondd.conf"
start_valgrind_bondd "$WORK/bondd.conf"
"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 60 >/dev/null ||
	{ show_log; fail "cold start: bond0 not whole"; }

worst=0 limits=0
for ((round = 1; round <= ROUNDS; round++)); do
	before=$(log_count "after 6 passes")
	"$BONDKILL" bond0 "$DELETIONS" 10 >"$WORK/kill.out" 2>&1 ||
		{ cat "$WORK/kill.out"; show_log; fail "round $round: bondd stopped re-creating bond0"; }
	IFS= read -r line <"$WORK/kill.out"
	last=${line##* last at }
	last_us=${last//[!0-9]/}
	"$BONDWATCH" --bond bond0 --slaves e1,e2,e3,e4 --mtu 9000 --timeout 30 >"$WORK/watch.out" 2>&1 ||
		{ cat "$WORK/watch.out"; show_log; fail "round $round: bond0 not whole 30 s after the last deletion"; }
	now=${EPOCHREALTIME//[!0-9]/}
	ms=$(((now - last_us) / 1000))
	hit=$(($(log_count "after 6 passes") - before))
	limits=$((limits + hit))
	echo "round $round: $line; whole $ms ms after the last deletion; pass limit reached $hit times"
	((ms > worst)) && worst=$ms
	((ms <= BOUND_MS)) || { show_log; fail "round $round: bond0 whole after $ms ms, more than $BOUND_MS ms"; }
done
echo "measured: bond0 deleted $DELETIONS times x $ROUNDS rounds under valgrind: whole at worst $worst ms after the last deletion; pass limit reached $limits times"
valgrind_verdict
