# SPDX-License-Identifier: MIT
# Status socket: for each of the seven modes, `bondd-status BOND` prints
# exactly what `cat /proc/net/bonding/BOND` prints, for root and for an
# unprivileged client; the unprivileged one never sees the 802.3ad lines
# the kernel keeps for CAP_NET_ADMIN.  Several bonds: one blank line apart,
# in config order.  bondd runs confined as under bondd.service (not root,
# only CAP_NET_ADMIN): it must still tell a privileged client from another.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"
confine_bondd

modes=(balance-rr active-backup balance-xor broadcast 802.3ad balance-tlb balance-alb)
nics 14
conf=""
for i in "${!modes[@]}"; do
	conf+="[b$i]"$'\n'"mode = ${modes[i]}"$'\n'"miimon = 100"$'\n'
	conf+="slaves = e$((2 * i + 1)) e$((2 * i + 2))"$'\n'
done
write_conf "$WORK/bondd.conf" <<<"$conf"
start_bondd "$WORK/bondd.conf"
for i in "${!modes[@]}"; do
	whole "b$i" "e$((2 * i + 1)),e$((2 * i + 2))" 9000 >/dev/null
done
healthy() { status --brief >/dev/null; }
wait_until 15 healthy || {
	status --brief || true
	ip -d link show b3 || true
	cat /proc/net/bonding/b3 || true
	show_log
	fail "the bonds did not become healthy"
}

# same WHO BOND: bondd-status's text equals the kernel's, read by the same
# kind of client just before or just after (802.3ad counters may move).
same() {
	local who=$1 bond=$2 before got after run=()
	[[ $who == nobody ]] && run=(as_nobody)
	before=$("${run[@]}" cat "/proc/net/bonding/$bond")
	got=$("${run[@]}" "$BONDD_STATUS" --socket "$SOCK" "$bond")
	after=$("${run[@]}" cat "/proc/net/bonding/$bond")
	[[ $got == "$before" || $got == "$after" ]] && return 0
	diff <(echo "$before") <(echo "$got") || true
	return 1
}
for i in "${!modes[@]}"; do
	for who in root nobody; do
		ok=0
		for try in 1 2 3; do same "$who" "b$i" && { ok=1; break; }; done
		((ok)) || fail "${modes[i]}: bondd-status b$i differs from /proc for $who"
	done
	echo "${modes[i]}: identical to /proc for root and for nobody"
done

ad=b4
root_text=$(status "$ad")
nobody_text=$(as_nobody "$BONDD_STATUS" --socket "$SOCK" "$ad")
[[ $root_text == *"System MAC address: "* ]] || fail "root should see the 802.3ad system MAC"
[[ $nobody_text != *"System MAC address: "* ]] || fail "nobody sees the system MAC"
[[ $nobody_text != *"details actor lacp pdu:"* ]] || fail "nobody sees LACP PDU details"
[[ $nobody_text == *"Aggregator selection policy"* ]] || fail "nobody lost an unprivileged line"

# Stricter than the kernel, on purpose (bondd(8), PROTOCOL): a non-root
# process holding CAP_NET_ADMIN gets the unprivileged text, and so does a
# root process without it.
capable_text=$(setpriv --reuid=61235 --regid=61235 --clear-groups --inh-caps=-all,+net_admin \
	--ambient-caps=-all,+net_admin -- "$BONDD_STATUS" --socket "$SOCK" "$ad")
assert_eq "$nobody_text" "$capable_text" "non-root with CAP_NET_ADMIN"
nocap_text=$(setpriv --inh-caps=-all --bounding-set=-net_admin -- "$BONDD_STATUS" --socket "$SOCK" "$ad")
assert_eq "$nobody_text" "$nocap_text" "root without CAP_NET_ADMIN"
# A client that connects unprivileged and then gains root while keeping the
# connection (as exec() of a set-uid program does: real uid unchanged,
# effective 0, every capability back) must not get the privileged lines.
python3 - "$SOCK" "$ad" <<'PY' || fail "a client that became root after connecting saw the privileged lines"
import os, socket, sys
os.setresuid(65534, 65534, 0)          # unprivileged; saved uid root
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
os.setresuid(65534, 0, 0)              # now as a set-uid root program runs
s.sendall(f"proc {sys.argv[2]}\n".encode())
f = s.makefile("rb")
head = f.readline().decode()           # bondd/1 ok STATUS LEN
assert head.startswith("bondd/1 ok 0 "), head
text = f.read(int(head.split()[3])).decode()
assert "Aggregator selection policy" in text, "not the bond's text"
print("became root after connecting:", "privileged lines" if "System MAC address" in text else "unprivileged text")
sys.exit(1 if "System MAC address" in text else 0)
PY

# Several bonds: config order, one blank line between them.
want="$(cat /proc/net/bonding/b0)"$'\n\n'"$(cat /proc/net/bonding/b1)"
got=$(status b1 b0)
assert_eq "$want" "$got" "two bonds"
