# SPDX-License-Identifier: MIT
# scenario-timeout: 120
# Issue 34: bondd at the open-file limit.  Run with RLIMIT_NOFILE 128 (soft
# and hard: raising cannot help) and 40 802.3ad bonds of 4 slaves with the
# link check on (a socket bound to each slave, where a slave may be
# inactive: 160 packet sockets wanted): bondd says at the normal level
# that the configuration needs more, and, once the link check is refused
# its sockets, why ("Too many open files"); every bond's health says it is
# impaired (--brief exits 1 with the cause), and so does --json's top-level
# "impaired"; repairs still work (names are
# never looked up with a socket of their own: a re-created slave is put
# back), and the status socket still answers.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
. "$LIB_DIR/scale-lib.sh"

sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
scale_links 40
scale_conf 40 "$WORK/bondd.conf" 802.3ad
# The limit as --check sees it, in the same process limits.
out=$(prlimit --nofile=128:128 "$BONDD" --check --config "$WORK/bondd.conf" 2>&1) || fail "--check failed: $out"
[[ $out == *"need about "*" open files, more than the limit here (128, RLIMIT_NOFILE)"* ]] ||
	fail "--check does not say the limit cannot serve the configuration: $out"
scale_start "$WORK/bondd.conf" prlimit --nofile=128:128
wait_log "more than bondd's limit of 128" 1 5 || { show_log; fail "the start does not say the limit is short"; }
wait_log "Too many open files" 1 20 || { show_log; fail "the refused sockets' cause is not in the log"; }
log_has "bondd's open files are at their limit" 1 || { show_log; fail "the log does not name the limit"; }
(($(log_count "debug:") == 0)) || fail "bondd ran with --debug: the lines above must be at the normal level"

# Every bond whole (the kernel's side), and the status says bondd is impaired.
allwhole() {
	local b
	for ((b = 0; b < 40; b++)); do
		[ "$(sysval /sys/class/net/b$b/bonding/slaves)" = "d${b}a d${b}b d${b}c d${b}d" ] || return 1
	done
}
wait_until 30 allwhole || { show_log; fail "not every bond whole at the limit"; }
rc=0
out=$(status --brief) || rc=$?
assert_eq 1 "$rc" "--brief's exit status at the limit"
[[ $out == *"b39 degraded"*"(impaired: link check: no packet socket for "*" slaves: Too many open files"*"(open-file limit 128))"* ]] ||
	fail "--brief does not give the cause: $out"
# LLDP's one socket, opened first, is not what was refused.
[[ $out != *"LLDP: Too many open files"* ]] || fail "LLDP's socket was refused: $out"
assert_eq 40 "$(scale_lines "$out" "b* degraded *")" "bonds degraded in --brief"
# bondd's own impairment at the top of --json, with its cause (the unit
# test test_bond_view judges it with no bond asked about too).
rc=0
js=$(status --json) || rc=$?
assert_eq 1 "$rc" "--json's exit status at the limit"
[[ $js == *'"health_code":1,"impaired":{"picture_stale":false,"limit_reached":true,"reason":"impaired: link check: no packet socket for '*'Too many open files'* ]] ||
	fail "--json has no top-level impaired with the cause: ${js:0:300}"
echo "measured: $(scale_fds) open files at a limit of 128; $(scale_lines "$out" "b* degraded *") bonds report: ${out%%$'\n'*}"

# Repairs go on: a slave of the last bond re-created is put back (the last
# one: in 802.3ad a returning slave joins at the end).
watch_start b39 d39a,d39b,d39c,d39d 9000 --after-new d39d
ip -batch - <<<"link del d39d
link add d39d type dummy"
watch_end
echo "measured: b39 whole ${REPAIR_MS} ms after the new d39d appeared, at the open-file limit"
assert_within 1000 "re-enslaving d39d at the open-file limit"
(($(log_count "no such interface") == 0)) || { show_log; fail "a repair failed for want of a socket"; }
