# SPDX-License-Identifier: MIT
# An 802.3ad bond deleted by `state = absent` on reload: deleting a bond
# releases every port (bond_main.c bond_uninit), so each port that is up
# is set down first, as for any other release (195).  Seen from outside
# bondd by bondwatch: the first event in which each port has no master
# shows it down.  Another layout than 195: four ports, not in name order,
# one of them down by hand beforehand (no request for it), and an
# active-backup bond beside it that is deleted as it always was (its ports
# are not set down: not 802.3ad).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 6
write_conf "$WORK/bondd.conf" <<CONF
[lag7]
mode = 802.3ad
miimon = 100
mtu = 1500
slaves = e4 e2 e3 e1

[ab9]
mode = active-backup
miimon = 100
mtu = 1500
slaves = e5 e6
CONF
start_bondd "$WORK/bondd.conf"
whole lag7 e4,e2,e3,e1 1500 >/dev/null
whole ab9 e5,e6 1500 >/dev/null
ip link set e3 down

# Every link change until the timeout (the bond "never" is never whole).
: >"$WORK/watch.out"
# Watched until bondwatch has printed both bonds gone (the kernel
# announces every release before its bond's deletion), not for a fixed
# 4 s that a slow reload in a loaded guest could outlast.
"$BONDWATCH" --bond never --slaves x --timeout 60 --verbose >"$WORK/watch.out" 2>&1 &
WATCH_PID=$!
wait_until 5 file_has "$WORK/watch.out" watching || fail "bondwatch did not start"
sed -i 's/^mode = 802.3ad/mode = 802.3ad\nstate = absent/; s/^mode = active-backup/&\nstate = absent/' \
	"$WORK/bondd.conf"
status --reload >/dev/null || { show_log; fail "reload refused"; }
gone() { [ ! -e /sys/class/net/lag7 ] && [ ! -e /sys/class/net/ab9 ]; }
wait_until 5 gone || { show_log; fail "the bonds were not deleted"; }
seen_gone() { file_has "$WORK/watch.out" " gone lag7 mtu" && file_has "$WORK/watch.out" " gone ab9 mtu"; }
wait_until 20 seen_gone || { cat "$WORK/watch.out"; fail "bondwatch did not see both bonds deleted"; }
kill "$WATCH_PID" 2>/dev/null || true
wait "$WATCH_PID" || true

# released PORT: the admin state in the first event where PORT has no master.
released() {
	local line
	while IFS= read -r line; do
		[[ $line =~ \ changed\ $1\ mtu\ [0-9]+\ master\ 0\ (up|down)$ ]] || continue
		echo "${BASH_REMATCH[1]}"
		return
	done <"$WORK/watch.out"
	echo none
}
for port in e4 e2 e3 e1; do
	state=$(released $port)
	[ "$state" = down ] || { cat "$WORK/watch.out"; show_log; fail "$port of lag7: released $state"; }
done
# e3 was down already: no request for it.
# apply_e3: requests for e3 on the deletion.
apply_e3() {
	local line n=0
	while IFS= read -r line; do
		[[ $line == *"apply: "*" e3 (state absent)" ]] && n=$((n + 1))
	done <"$BONDD_LOG"
	echo "$n"
}
assert_eq 0 "$(apply_e3)" "requests for e3, down already"
for port in e5 e6; do
	state=$(released $port)
	[ "$state" != none ] || { cat "$WORK/watch.out"; fail "$port of ab9: no release seen"; }
done
echo "every port of the deleted 802.3ad bond was down before its release"
