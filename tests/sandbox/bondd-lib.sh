# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# bondd helpers for sandbox scenarios, on top of lib.sh.  Each scenario runs
# in a fresh network namespace; "NICs" are veth pairs whose far ends live in
# a peer namespace, so a peer going down is a real carrier loss on our side.
#
# Process starts cost ~100 ms in the UML guest: the helpers batch ip commands
# and poll with bash builtins only.

: "${BONDWATCH:=$BUILD_DIR/tests/sandbox/bondwatch}"
WORK=$(mktemp -d)
# Traversable, so that an unprivileged client can reach the socket in it.
chmod 755 "$WORK"
BONDD_LOG=$WORK/bondd.log
SOCK=$WORK/bondd.sock
BONDD_PID=

# nics N [FIRST]: veth pairs eI <-> pI for I = FIRST..FIRST+N-1, far ends up
# in the peer namespace $PEER (created on first use).
nics() {
	local n=$1 first=${2:-1} i here="" there=""
	[ -n "${PEER:-}" ] || PEER=$(peer_ns peer)
	for ((i = first; i < first + n; i++)); do
		here+="link add e$i type veth peer name p$i netns $PEER"$'\n'
		there+="link set p$i up"$'\n'
	done
	ip -batch - <<<"$here"
	ip -n "$PEER" -batch - <<<"$there"
}

# write_conf FILE: the config from stdin.
write_conf() { cat >"$1"; }

# READY: bondd's line when its first pass is done ("ready" alone would also
# match other lines, e.g. the link check's "(e1 ready)").
READY="bondd: ready"

# start_bondd CONF [ARGS...]: starts bondd in the background and waits until
# its first pass is done (one more READY line in its log than before: a log
# shared by several starts already holds the earlier ones).  BONDD_PREFIX,
# if set, is a command prefix (e.g. confined_bondd's setpriv).
start_bondd() {
	local conf=$1 before
	shift
	before=$(log_count "$READY")
	# shellcheck disable=SC2086 # BONDD_PREFIX: words of a command prefix
	${BONDD_PREFIX:-} "$BONDD" --config "$conf" --socket "$SOCK" --debug "$@" >>"$BONDD_LOG" 2>&1 &
	BONDD_PID=$!
	wait_log "$READY" $((before + 1)) 10 || fail "bondd did not become ready"
}

stop_bondd() {
	[ -n "$BONDD_PID" ] || return 0
	kill -TERM "$BONDD_PID" 2>/dev/null || true
	wait "$BONDD_PID" 2>/dev/null || true
	BONDD_PID=
}

# log_count PATTERN: lines of the bondd log containing PATTERN (no spawn).
log_count() {
	local line n=0
	while IFS= read -r line; do
		[[ $line == *"$1"* ]] && n=$((n + 1))
	done <"$BONDD_LOG"
	echo "$n"
}

# wait_log PATTERN COUNT TIMEOUT: waits until PATTERN has appeared COUNT times.
wait_log() {
	local pattern=$1 want=$2 timeout=$3
	wait_until "$timeout" log_has "$pattern" "$want"
}
log_has() { [ "$(log_count "$1")" -ge "$2" ]; }

# whole BOND SLAVES MTU [bondwatch args...]: waits (from outside bondd) until
# BOND is up with exactly SLAVES (comma list) in order at MTU; prints the
# time bondwatch measured.
whole() {
	local bond=$1 slaves=$2 mtu=$3
	shift 3
	"$BONDWATCH" --bond "$bond" --slaves "$slaves" --mtu "$mtu" --timeout 10 "$@" ||
		fail "$bond did not become whole"
}

# whole_within LIMIT_MS BOND SLAVES MTU [bondwatch args...]: like whole,
# and fails when bondwatch measured more than LIMIT_MS: a repair that
# happens, but late, is a failure.  Sets REPAIR_MS.
whole_within() {
	local limit=$1 out
	shift
	out=$(whole "$@")
	REPAIR_MS=${out##*whole after }
	REPAIR_MS=${REPAIR_MS%% ms*}
	assert_within "$limit" "$2 whole"
}

# assert_within LIMIT_MS WHAT: the last measured REPAIR_MS is at most
# LIMIT_MS (a frozen or slow repair fails, not only a missing one).
assert_within() {
	local ms=${REPAIR_MS%%.*}
	[[ $ms =~ ^[0-9]+$ ]] || fail "$2: no time measured ('${REPAIR_MS:-}')"
	((ms <= $1)) || { show_log; fail "$2 took ${REPAIR_MS} ms, over the bound of $1 ms"; }
}

# sysval PATH: the first line of a sysfs or proc file, without spawning.
sysval() {
	local v
	IFS= read -r v <"$1" || true
	printf '%s' "$v"
}

# show_log: the bondd log, for a failing scenario's output.
show_log() {
	echo "--- bondd log ---"
	cat "$BONDD_LOG"
}

bondd_cleanup() {
	stop_bondd
	rm -rf "$WORK"
}
trap bondd_cleanup EXIT

# watch_start BOND SLAVES MTU [--after-new NAME | --after-mtu NAME]: starts
# bondwatch in the background and returns once it is subscribed, so the
# disturbance that follows cannot be missed.  watch_end waits for it and
# sets REPAIR_MS to the time it measured.
watch_start() {
	: >"$WORK/watch.out"
	"$BONDWATCH" --bond "$1" --slaves "$2" --mtu "$3" --timeout 10 "${@:4}" \
		>"$WORK/watch.out" 2>&1 &
	WATCH_PID=$!
	wait_until 5 file_has "$WORK/watch.out" watching || fail "bondwatch did not start"
}
watch_end() {
	local line
	wait "$WATCH_PID" || { cat "$WORK/watch.out"; show_log; fail "the bond was not repaired"; }
	while IFS= read -r line; do
		[[ $line == "whole after "* ]] && REPAIR_MS=${line#whole after }
	done <"$WORK/watch.out"
	REPAIR_MS=${REPAIR_MS% ms}
}
file_has() {
	local line
	while IFS= read -r line; do [[ $line == *"$2"* ]] && return 0; done <"$1"
	return 1
}

# The bond most scenarios use: the seeds' four ports, balance-rr, jumbo
# frames, fixed order.
standard_conf() {
	write_conf "$1" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
slaves = e1 e2 e3 e4
address = 10.77.0.1/24
CONF
}

# has_addr DEV ADDR/PREFIX
# (No pipe into grep -q: under pipefail, ip's SIGPIPE when grep stops
# early would make a present address look absent.)
has_addr() { [[ $(ip -o addr show dev "$1") == *" $2 "* ]]; }

# counters BOND: one line with the bond's ifindex and the carrier and link
# failure counters of the bond and every slave, to compare before and after.
counters() {
	local bond=$1 out s
	out="ifindex=$(sysval /sys/class/net/$bond/ifindex)"
	out+=" $bond.carrier_changes=$(sysval /sys/class/net/$bond/carrier_changes)"
	for s in $(sysval /sys/class/net/$bond/bonding/slaves); do
		out+=" $s.carrier_changes=$(sysval /sys/class/net/$s/carrier_changes)"
		out+=" $s.link_failure_count=$(sysval /sys/class/net/$s/bonding_slave/link_failure_count)"
	done
	printf '%s' "$out"
}
mii_up() { [ "$(sysval /sys/class/net/$1/bonding_slave/mii_status)" = up ]; }

# status ARGS...: bondd-status on this scenario's socket.
status() { "$BONDD_STATUS" --socket "$SOCK" "$@"; }

# bondd_settle: returns once bondd has read and handled every kernel event
# queued for it now, and made the repairs they call for (bondd-status
# --settle, a barrier): a check that bondd did nothing about what the
# scenario just did needs no sleep.  Not waited for: events the kernel
# makes later on its own (a carrier change goes through its linkwatch work,
# net/core/link_watch.c; the bonding driver's MII monitor runs on its
# timer), what bondd plans for later (a repair held back after a kernel
# error, a wait for udev, a link check), and what is not a netlink event
# (LLDP or probe frames).
bondd_settle() {
	local rc=0
	status --settle || rc=$?
	((rc == 0)) || { show_log; fail "bondd-status --settle: exit $rc"; }
}

# as_nobody CMD...: CMD without any privilege (uid 65534, no capabilities).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all -- "$@"
}

# confine_bondd: the next start_bondd runs bondd the way bondd.service does:
# not root, CAP_NET_ADMIN its only capability, no new privileges.  The
# socket moves to a directory that user owns.
confine_bondd() {
	mkdir -p "$WORK/run"
	chown 61234:61234 "$WORK/run"
	SOCK=$WORK/run/bondd.sock
	BONDD_PREFIX="setpriv --reuid=61234 --regid=61234 --clear-groups --no-new-privs
		--inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin"
}
