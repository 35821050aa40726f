# SPDX-License-Identifier: MIT
# A drop-in's section whose name is a typo ([stroage] for [storage]) with
# only an address: refused by --check and by a reload with FILE:LINE and
# "did you mean", no bond of that name made, the meant bond unchanged.  A
# drop-in that defines a whole bond (with its slaves) is still taken.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
mkdir "$WORK/bondd.conf.d"
write_conf "$WORK/bondd.conf" <<CONF
[storage]
mode = balance-rr
miimon = 100
mtu = 9000
slaves = e1 e2
CONF
typo=$WORK/bondd.conf.d/50-this-host.conf
write_conf "$typo" <<CONF
# this host's address
[stroage]
address = 10.66.0.5/24
CONF
rc=0
"$BONDD" --check --config "$WORK/bondd.conf" >"$WORK/check.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || { cat "$WORK/check.out"; fail "--check accepted the typo"; }
file_has "$WORK/check.out" "$typo:2: [stroage]: no earlier file defines a bond stroage" ||
	{ cat "$WORK/check.out"; fail "--check did not name the drop-in's line"; }
file_has "$WORK/check.out" "did you mean [storage]?" ||
	{ cat "$WORK/check.out"; fail "--check did not suggest [storage]"; }
if file_has "$WORK/check.out" "configuration OK"; then fail "--check said OK"; fi

# Running without the drop-in; then it appears and a reload is asked for.
mv "$typo" "$WORK/typo.conf"
start_bondd "$WORK/bondd.conf"
whole storage e1,e2 9000 >/dev/null
before=$(counters storage)
writes=$(log_count "apply:")
mv "$WORK/typo.conf" "$typo"
rc=0
err=$(status --reload 2>&1) || rc=$?
assert_eq 1 "$rc" "bondd-status --reload exit status with the typo"
[[ $err == *"$typo:2: [stroage]"*"did you mean [storage]?"* ]] ||
	fail "the refused reload said \"$err\""
[ ! -e /sys/class/net/stroage ] || fail "a bond stroage was made"
assert_eq "$before" "$(counters storage)" "storage after the refused reload"
assert_eq "$writes" "$(log_count "apply:")" "writes after the refused reload"
has_addr storage 10.66.0.5/24 && fail "the address went to storage anyway"

# The typo fixed: the address joins storage in place.
sed -i 's/^\[stroage\]/[storage]/' "$typo"
status --reload >/dev/null || { show_log; fail "the fixed drop-in was refused"; }
wait_until 5 has_addr storage 10.66.0.5/24 || { show_log; fail "no address on storage"; }
assert_eq "$before" "$(counters storage)" "storage after the good reload"

# A whole bond in a drop-in is a bond.
write_conf "$WORK/bondd.conf.d/60-extra.conf" <<CONF
[extra0]
mode = active-backup
miimon = 100
mtu = 1500
slaves = e3
CONF
status --reload >/dev/null || { show_log; fail "a drop-in's whole bond was refused"; }
whole extra0 e3 1500 >/dev/null
echo "typo refused by --check and by reload with FILE:LINE; whole bonds still taken"
