# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Many bonds at once (issue 34), for scenarios 230-232: N balance-rr bonds
# b0..b(N-1) of four dummy slaves each (d<B>a..d<B>d), the link check and
# LLDP on (their defaults), made in one ip batch.  Needs lib.sh and
# bondd-lib.sh.

# scale_links N: the dummies.
scale_links() {
	local n=$1 b s batch=""
	for ((b = 0; b < n; b++)); do
		for s in a b c d; do batch+="link add d$b$s type dummy"$'\n'; done
	done
	ip -batch - <<<"$batch"
}

# scale_conf N FILE [MODE]: the configuration (balance-rr by default).
scale_conf() {
	local n=$1 mode=${3:-balance-rr} b conf=""
	for ((b = 0; b < n; b++)); do
		conf+="[b$b]"$'\n'"mode = $mode"$'\n'"miimon = 100"$'\n'"mtu = 9000"$'\n'
		conf+="link_check = yes"$'\n'"lldp = yes"$'\n'
		conf+="slaves = d${b}a d${b}b d${b}c d${b}d"$'\n'
	done
	write_conf "$2" <<<"$conf"
}

# scale_start N FILE [PREFIX...]: bondd on FILE (no --debug: what it says
# is at the normal level), waiting up to 60 s for its first pass.
scale_start() {
	local conf=$1
	shift
	"$@" "$BONDD" --config "$conf" --socket "$SOCK" >>"$BONDD_LOG" 2>&1 &
	BONDD_PID=$!
	wait_log "$READY" 1 60 || { show_log; fail "bondd did not become ready"; }
}

# scale_fds: bondd's open files now (no spawn).
scale_fds() {
	local f n=0
	for f in /proc/"$BONDD_PID"/fd/*; do n=$((n + 1)); done
	echo "$n"
}

# scale_brief_ok: every bond healthy by --brief's exit status.
scale_brief_ok() { status --brief >/dev/null 2>&1; }
# scale_brief_down: --brief's exit status says a bond is down.
scale_brief_down() {
	local rc=0
	status --brief >/dev/null 2>&1 || rc=$?
	((rc == 2))
}

# scale_lines TEXT PATTERN: lines of TEXT matching the glob PATTERN.
scale_lines() {
	local line n=0
	while IFS= read -r line; do [[ $line == $2 ]] && n=$((n + 1)); done <<<"$1"
	echo "$n"
}

# scale_check N DOWN: the whole run.  Every bond whole and reported; bond
# DOWN (beyond the 64th) loses every slave's carrier: --brief exits 2 and
# names it down, --prometheus has it at health 2, --json has every bond;
# then slaves re-created or released across the bonds (beyond the 64th
# too) are put back, one timed from the kernel's events.
scale_check() {
	local n=$1 down=$2 out rc last=$(($1 - 1)) s
	sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	scale_links "$n"
	scale_conf "$n" "$WORK/bondd.conf"
	local t0=$EPOCHREALTIME
	scale_start "$WORK/bondd.conf"
	wait_until 60 scale_brief_ok || { status --brief | grep -v healthy; show_log; fail "not every bond healthy"; }
	echo "measured: $n bonds of 4 slaves healthy $(((${EPOCHREALTIME/./} - ${t0/./}) / 1000)) ms after the start; bondd has $(scale_fds) open files"
	out=$(status --brief) || fail "--brief of every bond: exit $?"
	assert_eq "$n" "$(scale_lines "$out" "b* healthy balance-rr mtu 9000 slaves 4/4 up")" "bonds healthy in --brief"

	# A bond beyond the 64th down: judged by the exit status of a request
	# that names no bond, in every format.
	ip -batch - <<<"link set d${down}a carrier off
link set d${down}b carrier off
link set d${down}c carrier off
link set d${down}d carrier off"
	wait_until 10 scale_brief_down || true
	rc=0
	out=$(status --brief) || rc=$?
	assert_eq 2 "$rc" "--brief's exit status with b$down down"
	[[ $out == *"b$down down"* ]] || fail "--brief does not show b$down down"
	assert_eq "$n" "$(scale_lines "$out" "b*")" "bonds in --brief"
	rc=0
	out=$(status --prometheus) || rc=$?
	assert_eq 2 "$rc" "--prometheus's exit status"
	[[ $out == *"bondd_bond_health{master=\"b$down\",device=\"b$down\"} 2"* ]] ||
		fail "--prometheus has no health 2 for b$down"
	assert_eq "$n" "$(scale_lines "$out" "bondd_bond_health{*")" "bonds in --prometheus"
	rc=0
	out=$(status --json) || rc=$?
	assert_eq 2 "$rc" "--json's exit status"
	[[ $out == *"\"b$last\""* ]] || fail "--json lacks b$last"
	ip -batch - <<<"link set d${down}a carrier on
link set d${down}b carrier on
link set d${down}c carrier on
link set d${down}d carrier on"
	wait_until 10 scale_brief_ok || { status --brief | grep -v healthy; fail "b$down did not come back"; }

	# Repairs across the bonds: a slave re-created in eight bonds and one
	# released, in one batch; then one re-created, timed.
	local batch=""
	for s in 1 $((n / 4)) 65 $((n / 2)) $((n - 40)) $((n - 20)) $((n - 2)) $last; do
		batch+="link del d${s}b"$'\n'"link add d${s}b type dummy"$'\n'
	done
	batch+="link set d$((n - 3))c nomaster"$'\n'
	ip -batch - <<<"$batch"
	wait_until 20 scale_brief_ok || { status --brief | grep -v healthy; show_log; fail "not every bond repaired"; }
	watch_start "b$last" "d${last}a,d${last}b,d${last}c,d${last}d" 9000 --after-new "d${last}c"
	ip -batch - <<<"link del d${last}c
link add d${last}c type dummy"
	watch_end
	echo "measured: b$last whole ${REPAIR_MS} ms after the new d${last}c appeared"
	assert_within 1000 "re-enslaving d${last}c of b$last"
	# The heavier repair (the second slave: the two after it released and
	# enslaved again for the order), three times: a wake-up plans the
	# bond its events touched, not every bond (plan_touch.h).  Tens of ms
	# on an idle host; the bound is generous for a loaded one (56-274 ms
	# measured at a load average of 7-12 on 2 cores), and far below the
	# seconds a repair took when every event re-read every slave.
	local round times=""
	for round in 1 2 3; do
		watch_start "b$last" "d${last}a,d${last}b,d${last}c,d${last}d" 9000 --after-new "d${last}b"
		ip -batch - <<<"link del d${last}b
link add d${last}b type dummy"
		watch_end
		times+="${times:+, }$REPAIR_MS"
		assert_within 1000 "re-creating d${last}b of b$last (round $round)"
	done
	echo "measured: b$last whole again after d${last}b re-created: $times ms"
	(($(log_count "no such interface") == 0)) || { show_log; fail "a repair failed with 'no such interface'"; }
	(($(log_count "Too many open files") == 0)) || { show_log; fail "bondd ran out of open files"; }
	local fds
	fds=$(scale_fds)
	echo "measured: bondd has $fds open files with $n bonds, $((4 * n)) slaves"
	# One LLDP socket and one link check socket serve every slave of a
	# balance-rr bond: the open files do not grow with the slaves.
	((fds <= 64)) || fail "bondd has $fds open files for $n bonds: they grow with the slaves"
}
