# SPDX-License-Identifier: MIT
# Behaviour 9: lost events.  With a tiny netlink receive buffer, a storm of
# link events while bondd is stopped overflows its socket (ENOBUFS).  bondd
# must notice, re-read everything, and repair what happened in the storm
# even though those events were lost.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 4
standard_conf "$WORK/bondd.conf"
BONDD_EVENT_RCVBUF=1024 start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2,e3,e4 9000 >/dev/null

kill -STOP "$BONDD_PID"
storm=""
for ((i = 0; i < 100; i++)); do
	storm+="link add d$i type dummy"$'\n'"link set d$i up"$'\n'
done
storm+="link del e2"$'\n'"link set e3 nomaster"$'\n'"link set e4 mtu 1500"$'\n'
ip -batch - <<<"$storm"
ip link add e2 type veth peer name p2 netns "$PEER"
ip -n "$PEER" link set p2 up
kill -CONT "$BONDD_PID"

whole_within 1000 bond0 e1,e2,e3,e4 9000
echo "measured: bond0 whole ${REPAIR_MS} ms after bondd went on"
wait_log "events were lost" 1 5 || { show_log; fail "the overflow was not noticed"; }
