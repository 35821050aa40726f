# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# bondd under valgrind's memcheck, for sandbox scenarios (after lib.sh and
# bondd-lib.sh).  valgrind reports into $VG_LOG; valgrind_verdict fails the
# scenario on any report: an error (uninitialised bytes sent to the kernel,
# an invalid read...), a leak (definite, indirect or possible) or an exit
# status that is not bondd's clean one.  Under valgrind bondd runs 20-50
# times slower: a slowed daemon is also what some scenarios want.

VG_LOG=$WORK/valgrind.log
VG_STATUS=99 # valgrind's exit status when it reported errors

command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/install-deps test)"

# start_valgrind_bondd CONF [ARGS...]: like start_bondd, with a longer wait.
start_valgrind_bondd() {
	local conf=$1 before
	shift
	before=$(log_count "$READY")
	valgrind --quiet --log-file="$VG_LOG" --error-exitcode=$VG_STATUS \
		--leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --track-fds=no \
		"$BONDD" --config "$conf" --socket "$SOCK" --debug "$@" >>"$BONDD_LOG" 2>&1 &
	BONDD_PID=$!
	wait_log "$READY" $((before + 1)) 60 || { show_log; fail "bondd under valgrind did not become ready"; }
}

# valgrind_verdict: stops bondd with SIGTERM, waits for it, and fails on a
# status other than 0 or on anything valgrind wrote.
valgrind_verdict() {
	local rc=0 line report=""
	kill -TERM "$BONDD_PID"
	wait "$BONDD_PID" || rc=$?
	BONDD_PID=
	while IFS= read -r line || [[ -n $line ]]; do
		report+=$line$'\n'
	done <"$VG_LOG"
	if ((rc != 0)) || [[ -n $report ]]; then
		echo "--- valgrind ---"
		printf '%s' "$report"
		show_log
		fail "bondd under valgrind: exit status $rc, $([[ -n $report ]] && echo "valgrind reported the above" || echo "no valgrind report")"
	fi
	echo "measured: valgrind: bondd exited 0 with no report"
}
