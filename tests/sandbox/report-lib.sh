# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# The console report of failed scenarios, for run-sandbox.  The TAP stream
# says why a scenario failed only in the comment lines after its "not ok"
# (its log, quoted by run-scenarios), and meson shows the console a bare
# FAIL: report_line sees every TAP line and, for each failed scenario,
# writes to stderr its result line, its "FAIL: " lines and other errors, the
# end of its log and where the whole log is.  tests/sandbox/report-selftest
# checks it on a made-up stream.
#
# Needs SANDBOX_DIR (the logs are in $SANDBOX_DIR/out/NAME.log).

REPORT_TAIL=25 # log lines shown per failed scenario
REPORT_HEAD=   # the "not ok" line being collected
REPORT_LINES=()
REPORT_SECOND=0 # 1 while the comments of a second-run pass are shown

# report_line LINE: one TAP line, in order.
report_line() {
	if [[ -n $REPORT_HEAD && $1 == "#"* ]]; then
		REPORT_LINES+=("${1#\# }")
		return 0
	fi
	# A scenario that passed only on a second run (run-scenarios): its
	# first run's FAIL: lines follow as "# first run: ..." comments.
	if [[ $REPORT_SECOND == 1 && $1 == "# first run"* ]]; then
		echo "     | ${1#\# }" >&2
		return 0
	fi
	REPORT_SECOND=0
	report_flush
	[[ $1 == "not ok "* ]] && REPORT_HEAD=$1
	if [[ $1 == "ok "*"passed on a second run"* ]]; then
		echo "---- scenario passed only on a second run: ${1#ok }" >&2
		REPORT_SECOND=1
	fi
	return 0
}

# report_flush: the report of the failed scenario collected so far, if any.
# Also to be called after the last line.
report_flush() {
	[[ -n $REPORT_HEAD ]] || return 0
	local name=${REPORT_HEAD#not ok * - } line i first=0 n=${#REPORT_LINES[@]}
	name=${name%% *}
	{
		echo "---- scenario FAILED: ${REPORT_HEAD#not ok }"
		echo "     why (its FAIL: lines and the commands that failed):"
		for line in "${REPORT_LINES[@]}"; do
			case $line in
			"FAIL: "* | *" exited with status "* | "uml-boot: "* | *"Aborted"*) echo "     | $line" ;;
			esac
		done
		((n > REPORT_TAIL)) && first=$((n - REPORT_TAIL))
		echo "     the end of its log:"
		for ((i = first; i < n; i++)); do echo "     | ${REPORT_LINES[i]}"; done
		echo "     the whole log: $SANDBOX_DIR/out/$name.log"
	} >&2
	REPORT_HEAD=
	REPORT_LINES=()
}
