# scenario-timeout: 400
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
set +e
N=${N256:-256}
many=""
for ((i = 0; i < 2*N; i++)); do many+="link add d$i type dummy"$'\n'; done
ip -batch - <<<"$many"
conf=""
for ((b = 0; b < N; b++)); do
	conf+="[b$b]"$'\n'"mode = balance-rr"$'\n'"miimon = 100"$'\n'"mtu = 9000"$'\n'
	conf+="slaves = d$((2 * b)) d$((2 * b + 1))"$'\n'"address = 10.$((b / 200)).$((b % 200)).1/24"$'\n'"tcp_congestion = bbr"$'\n'
done
write_conf "$WORK/bondd.conf" <<<"$conf"
routes=""
for ((i = 0; i < ${NROUTES:-20000}; i++)); do routes+="route add 172.$((16 + i / 65536)).$((i / 256 % 256)).$((i % 256))/32 dev lo"$'\n'; done
t0=$EPOCHREALTIME
ip link set lo up; [ -n "$routes" ] && ip -batch - <<<"$routes"
n=0; while IFS= read -r l; do n=$((n+1)); done </proc/net/route; echo "routes: $n"
echo "routes added in $(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000 )) ms"
t0=$EPOCHREALTIME
chrt -r 1 prlimit --rttime=1000000:2000000 "$BONDD" --config "$WORK/bondd.conf" --socket "$SOCK" >>"$BONDD_LOG" 2>&1 &
BONDD_PID=$!
wait_log "$READY" 1 300; echo "ready: $?"
echo "start took $(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000 )) ms"
kill -0 $BONDD_PID && echo alive || { wait $BONDD_PID; echo "DEAD status $?"; }
grep -c "" /proc/$BONDD_PID/status >/dev/null 2>&1 && grep -E "ctxt|Cpus" /proc/$BONDD_PID/status
cat /proc/$BONDD_PID/sched 2>/dev/null | grep -E "sum_exec|nr_switches|policy|prio"
# reload storm: 5 reloads
for i in 1 2 3; do kill -HUP $BONDD_PID; done; nap 3
pids=(); for i in $(seq 1 200); do status --json >/dev/null & pids+=($!); done; wait "${pids[@]}"
kill -0 $BONDD_PID && echo alive2 || { wait $BONDD_PID; echo "DEAD2 status $?"; }
tail -5 $BONDD_LOG
exit 1
