# SPDX-License-Identifier: MIT
# Issue 11: when udev runs, a new link is touched only once udev has
# initialized it (its record /run/udev/data/n<ifindex> has an "I:" line,
# as systemd's sd-device writes it), with a bounded wait; without udev
# nothing waits.  The udev directory is faked (BONDD_UDEV_DIR), so the
# guest's own /run is not touched.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

UDEV=$WORK/udev
mkdir -p "$UDEV/data"
: >"$UDEV/control"
# mark NAME: udev's record of NAME (no process started: the background
# writer below runs inside the measured time).
mark() {
	local idx
	IFS= read -r idx <"/sys/class/net/$1/ifindex"
	printf 'I:%s\nE:ID_NET_DRIVER=veth\n' "$EPOCHSECONDS" >"$UDEV/data/n$idx"
}

nics 2
mark e1
mark e2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
mode = balance-rr
miimon = 100
mtu = 9000
slaves = e1 e2 e3 e4
CONF
BONDD_UDEV_DIR=$UDEV start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

# udev "initializes" e3 300 ms after it appeared.
watch_start bond0 e1,e2,e3 9000 --after-new e3
ip link add e3 type veth peer name p3 netns "$PEER"
( nap 0.3; mark e3 ) &
writer=$!
ip -n "$PEER" link set p3 up
watch_end
wait "$writer"
echo "measured: with udev, bond0 whole ${REPAIR_MS} ms after e3 appeared (udev done after >= 300 ms)"
ms=${REPAIR_MS%%.*}
((ms >= 300)) || { show_log; fail "e3 was enslaved before udev initialized it"; }
assert_within 1500 "enslaving e3 after udev"
wait_log "e3: waiting for udev" 1 2 || { show_log; fail "no wait logged"; }
wait_log "e3: udev initialized it after" 1 2 || { show_log; fail "no end of the wait logged"; }
# Once bondd saw udev's record, the repair took milliseconds.
while IFS= read -r line; do
	[[ $line == *"e3: udev initialized it after "* ]] && seen=${line##*after } && seen=${seen%% ms*}
done <"$BONDD_LOG"
after=$((${REPAIR_MS%%.*} - seen))
echo "measured: bond0 whole ${after} ms after bondd saw udev's record of e3 (seen after ${seen} ms)"
((seen >= 300 && after <= 500)) || { show_log; fail "not repaired promptly once udev was done"; }

# No udev: no wait.
rm "$UDEV/control"
watch_start bond0 e1,e2,e3,e4 9000 --after-new e4
ip link add e4 type veth peer name p4 netns "$PEER"
ip -n "$PEER" link set p4 up
watch_end
echo "measured: without udev, bond0 whole ${REPAIR_MS} ms after e4 appeared"
assert_within 1000 "enslaving e4 without udev"
(($(log_count "e4: waiting for udev") == 0)) || fail "bondd waited for udev that does not run"
