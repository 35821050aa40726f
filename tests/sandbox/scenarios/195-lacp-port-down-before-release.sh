# SPDX-License-Identifier: MIT
# An 802.3ad port is set down before bondd releases it (a port released
# while up may be err-disabled by the switch): seen from outside bondd by
# bondwatch, the first event in which each port has no master shows it
# down.  Both rebuilds by reload: 802.3ad to balance-rr (the bond is in
# 802.3ad while its ports go) and back (the bond is to be 802.3ad).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = 802.3ad
miimon = 100
mtu = 9000
slaves = e1 e2 e3
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3 9000 >/dev/null

# rebuild_to MODE: reload with MODE while bondwatch records every link
# change; it ends when the link "mark$N" appears after the bond is whole.
N=0
rebuild_to() {
	N=$((N + 1))
	watch_start bond0 e1,e2,e3 9000 --after-new "mark$N" --verbose
	sed -i "s/^mode = .*/mode = $1/" "$WORK/bondd.conf"
	status --reload >/dev/null || { show_log; fail "reload to $1 refused"; }
	whole bond0 e1,e2,e3 9000 >/dev/null
	ip link add "mark$N" type dummy
	watch_end
	[[ $(sysval /sys/class/net/bond0/bonding/mode) == "$1 "* ]] || fail "bond0 not in $1"
}

# released_down FROM: for e1 e2 e3, the first change after which the port
# has no master shows it admin-down.
released_down() {
	local port line seen
	for port in e1 e2 e3; do
		seen=
		while IFS= read -r line; do
			[[ $line =~ \ changed\ $port\ mtu\ [0-9]+\ master\ 0\ (up|down)$ ]] || continue
			seen=${BASH_REMATCH[1]}
			break
		done <"$WORK/watch.out"
		[ -n "$seen" ] || { cat "$WORK/watch.out"; fail "$1: no release of $port seen"; }
		[ "$seen" = down ] || { cat "$WORK/watch.out"; fail "$1: $port was released while up"; }
	done
	echo "$1: e1 e2 e3 each down before its release"
}

rebuild_to balance-rr
released_down "802.3ad -> balance-rr"
rebuild_to 802.3ad
released_down "balance-rr -> 802.3ad"
echo "every released 802.3ad port was down first"
