# SPDX-License-Identifier: MIT
# One-shot clients: `printf 'brief\n' | socat - UNIX-CONNECT:SOCK` sends
# its request and shuts its sending side at once, then waits for the
# reply.  Every one gets it: 100 of 100 (on main at 717c04d, 7 of 100 did:
# the server dropped a client at end-of-file before sending what it had
# queued).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

# A client's half-close is the status server's own handling of a Unix
# socket, the same on every kernel, and 100 one-shot clients take most of a
# minute: once, on 6.1 (CI's time).
case $(uname -r) in
6.1.*) ;;
*) skip "the status server: kernel-independent, run on 6.1 only" ;;
esac

command -v socat >/dev/null || fail "socat is not installed (scripts/install-deps test installs it)"
nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
healthy() { status --brief >/dev/null; }
wait_until 10 healthy || fail "bond0 did not become healthy"

ok=0
for i in $(seq 100); do
	reply=$(printf 'brief\n' | socat -t 5 - "UNIX-CONNECT:$SOCK") || true
	[[ $reply == "bondd/1 ok 0 "*$'\n'"bond0 healthy "* ]] && ok=$((ok + 1))
done
echo "measured: socat one-shot clients answered: $ok of 100"
assert_eq 100 "$ok" "half-closed clients answered"

# A last request without its newline is answered too.
reply=$(printf 'version' | socat -t 5 - "UNIX-CONNECT:$SOCK")
[[ $reply == "bondd/1 ok 0 "*$'\n'"bondd "*" protocol 1" ]] || fail "no reply to a request ended by the half-close: $reply"
