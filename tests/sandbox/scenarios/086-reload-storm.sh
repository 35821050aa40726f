# SPDX-License-Identifier: MIT
# scenario-timeout: 240
# Thousands of reloads from root, pipelined on one connection a thousand at
# a time, while the file changes under them and two slaves' peers flap
# (issue 14, attack).  Drift
# made in the middle of the storm is repaired within 1 s; once the storm and
# the flapping stop, one more reload applies the last file before it
# answers; a client that sends 200 reloads and goes away before any answer
# does no harm; and bondd's memory does not grow with the number of reloads
# (its resident size after the storm against after the first 100 reloads).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

BOUND_MS=1000
nics 4
conf() { # conf MIIMON: the file, replaced whole (as editors and tools do)
	printf '[bond0]\nmode = balance-rr\nmiimon = %s\nmtu = 9000\nslaves = e1 e2 e3 e4\naddress = 10.77.0.1/24\n' \
		"$1" >"$WORK/bondd.conf.new"
	mv "$WORK/bondd.conf.new" "$WORK/bondd.conf"
}
conf 100
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null
rss() {
	local k v u
	while read -r k v u; do [[ $k == VmRSS: ]] && echo "$v"; done </proc/"$BONDD_PID"/status
	return 0
}

# reloads N [close|STOPFILE]: N reloads in one write on one connection, and
# the answers' header lines counted; with "close", gone without reading;
# with a STOPFILE, batches of N until that file exists.
reloads() {
	python3 - "$SOCK" "$@" <<'PY'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
n = int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else ""
f = s.makefile("rb")
ok = bad = 0
while True:
    s.sendall(b"reload\n" * n)
    if mode == "close":
        s.close()
        sys.exit(0)
    for _ in range(n):
        head = f.readline().decode()
        if not head:
            sys.exit(f"bondd closed after {ok + bad} answers")
        parts = head.split()
        if parts[1] == "ok":
            f.read(int(parts[3]))
            ok += 1
        else:
            bad += 1
    if not mode or os.path.exists(mode):
        break
print(f"{ok} ok {bad} refused")
PY
}

out=$(reloads 100)
[[ $out == "100 ok 0 refused" ]] || fail "100 reloads: $out"
rss0=$(rss)

# The storm: batches of 1000 pipelined reloads, the file switching between
# two miimon values and e1's and e2's peers flapping, until the drift made
# in the middle of it is repaired.
stop=$WORK/stop
reloads 1000 "$stop" >"$WORK/storm.out" 2>&1 &
storm=$!
(
	i=0
	while [[ ! -e $stop ]]; do
		conf $((i % 2 ? 200 : 100))
		ip -n "$PEER" link set p$((i % 2 + 1)) down
		ip -n "$PEER" link set p$((i % 2 + 1)) up
		i=$((i + 1))
	done
	echo "$i" >"$WORK/flaps"
) &
flapper=$!
wait_log "reloading" 300 30 || fail "the storm did not start"
# bondwatch is subscribed before the drift and times the repair from the
# kernel's own message of it (its start during the storm is not counted).
watch_start bond0 e1,e2,e3,e4 9000 --after-mtu e3
ip link set e3 mtu 1500
watch_end
ms=${REPAIR_MS%%.*}
kill -0 "$storm" || fail "the storm ended before the repair: not a test"
during=$(log_count "reloading")
touch "$stop"
wait "$storm" || fail "the storm's client failed: $(cat "$WORK/storm.out")"
wait "$flapper"
out=$(cat "$WORK/storm.out")
[[ $out =~ ^([0-9]+)000\ ok\ 0\ refused$ ]] || fail "the storm's reloads: $out"
echo "measured: e3's MTU repaired $ms ms after the drift, $((during - 100)) reloads into the storm; $out; $(cat "$WORK/flaps") flaps"
((ms <= BOUND_MS)) || fail "e3's MTU repaired after $ms ms during a reload storm, more than $BOUND_MS ms"

# The last file, applied before the answer.
conf 300
out=$(status --reload) || fail "the reload after the storm exited $?"
assert_eq 300 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon as the last reload returns"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

# Gone before the answers.
reloads 200 close
conf 400
out=$(status --reload) || fail "bondd did not answer after a client left 200 reloads behind"
assert_eq 400 "$(sysval /sys/class/net/bond0/bonding/miimon)" "miimon after the abandoned reloads"
kill -0 "$BONDD_PID" || fail "bondd died"

rss1=$(rss)
n=$(($(log_count "reloading") - 100))
echo "measured: VmRSS ${rss0} kB after 100 reloads, ${rss1} kB after $n more"
(((rss1 - rss0) <= 512)) || fail "bondd grew from $rss0 kB to $rss1 kB over $n reloads"
