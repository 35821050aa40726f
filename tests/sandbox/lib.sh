# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Helpers for sandbox scenarios.  A scenario is a bash script that run-scenarios
# starts in a fresh network namespace of its own ($SCENARIO_NS, with /sys
# remounted for it); it begins with
#
#	. "$LIB_DIR/lib.sh"
#
# and ends with exit status 0 (pass), 77 (skip) or anything else (fail).
# Everything it creates must stay in $SCENARIO_NS or in helper namespaces made
# with peer_ns; the runner kills their processes and deletes them afterwards.
#
# Starting a process costs ~100 ms in the UML guest, so these helpers use bash
# builtins wherever they can: no cat, no sleep, no $(...) in poll loops.

set -Eeuo pipefail

# Set by run-scenarios; the defaults let a scenario be run by hand too
# (from the source tree, with BUILD_DIR set).
: "${LIB_DIR:=$(cd "${BASH_SOURCE[0]%/*}" && pwd)}"
: "${BUILD_DIR:?BUILD_DIR must point at the meson build directory}"
: "${SCENARIO_NS:=sc-manual}"

# The binaries under test.
: "${BONDD:=$BUILD_DIR/src/bondd}"
: "${BONDD_STATUS:=$BUILD_DIR/src/bondd-status}"
: "${NL_MKBOND:=$BUILD_DIR/tests/sandbox/nl-mkbond}"

# An unexpected failing command ends the scenario (set -e); say which one.
trap 'echo "${BASH_SOURCE[0]}:$LINENO: \"$BASH_COMMAND\" exited with status $?" >&2' ERR

# fail MSG: the scenario failed.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip MSG: the scenario cannot run here (a missing tool or module).
# run-scenarios reports the last "SKIP: " line as the reason.
skip() {
	echo "SKIP: $*"
	exit 77
}

# assert_eq EXPECTED ACTUAL MSG
assert_eq() {
	[[ "$1" == "$2" ]] || fail "$3: expected '$1', got '$2'"
}

# nap SECONDS: sleeps without starting a process.  read -t on a FIFO that we
# hold open for writing ourselves never sees data nor EOF, so it just waits.
# The FIFO is made (one mkfifo) on first use and unlinked at once.
NAP_FD=
nap() {
	if [[ -z $NAP_FD ]]; then
		local fifo=${TMPDIR:-/tmp}/.nap.$$.$RANDOM
		mkfifo -m 600 "$fifo"
		exec {NAP_FD}<>"$fifo"
		rm -f -- "$fifo"
	fi
	read -r -t "$1" -u "$NAP_FD" _ || true
}

# wait_until DEADLINE_S CMD [ARGS...]: runs CMD every 50 ms until it succeeds
# (returns 0) or DEADLINE_S seconds have passed (returns 1).  CMD is best a
# shell function that uses builtins only.
wait_until() {
	local limit=$1 int frac now end
	shift
	int=${limit%%.*}
	frac=${limit#"$int"}
	frac=${frac#.}000000
	now=${EPOCHREALTIME//[!0-9]/}
	end=$((now + 10#${int:-0} * 1000000 + 10#${frac:0:6}))
	while :; do
		"$@" && return 0
		now=${EPOCHREALTIME//[!0-9]/}
		((now < end)) || return 1
		nap 0.05
	done
}

# read_file PATH VAR: the whole content of PATH (e.g. a sysfs or proc file)
# into VAR, without starting a process.  Returns 1 if PATH cannot be read.
read_file() {
	local -n _rf_out=$2
	_rf_out=
	[[ -r $1 ]] || return 1
	IFS= read -r -d '' _rf_out <"$1" || true
}

# bond_slaves BOND: sets SLAVES to the bond's slaves in kernel order
# (space-separated), from /sys/class/net/BOND/bonding/slaves.
bond_slaves() {
	SLAVES=
	read_file "/sys/class/net/$1/bonding/slaves" SLAVES || fail "$1 is not a bond"
	SLAVES=${SLAVES%$'\n'}
}

# proc_bond BOND: sets PROC_BOND to the contents of /proc/net/bonding/BOND.
proc_bond() {
	# shellcheck disable=SC2034 # for the caller
	PROC_BOND=
	read_file "/proc/net/bonding/$1" PROC_BOND || fail "no /proc/net/bonding/$1"
}

# peer_ns NAME: creates the helper namespace $SCENARIO_NS-NAME, with lo up,
# and prints its name.  The runner deletes it after the scenario.
peer_ns() {
	local ns=$SCENARIO_NS-$1
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	echo "$ns"
}

# veth_pair A B [NS_B]: a veth pair A <-> B, both up; B is created in the
# namespace NS_B if given, else here.
veth_pair() {
	# "up" inside the add request fails (ENOTCONN) on 6.1: the new
	# device is set up by a request of its own.
	if [[ -n ${3:-} ]]; then
		ip -batch - <<<"link add $1 type veth peer name $2 netns $3
link set $1 up"
		ip -n "$3" link set "$2" up
	else
		ip -batch - <<<"link add $1 type veth peer name $2
link set $1 up
link set $2 up"
	fi
}
