# SPDX-License-Identifier: MIT
# Status socket under abuse: garbage, a 1 MiB request, binary bytes, an
# unknown verb, hundreds of idle connections, a client that never reads and
# one that sends its request a byte at a time, slowly, each get an error
# reply or are dropped, and bondd goes on serving and repairing.
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 2
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
slaves = e1 e2
CONF
start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null

python3 - "$SOCK" <<'PY'
import socket, sys, time
path = sys.argv[1]

def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(10)
    return s

def ask(data):
    s = conn()
    s.sendall(data)
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        reply += chunk
    s.close()
    return reply.decode(errors="replace")

# A client that sends a byte of a request every 2 s, never a newline: the
# 10 s request deadline runs from its first byte, trickling does not extend
# it.  Run last (it takes 10 s), after the idle crowd is gone: with 256
# clients the server closes the longest idle one, which could be this one.
trickle = {}
def trickler():
    s = conn()
    t0 = time.monotonic()
    try:
        for _ in range(12):
            s.send(b"p")
            time.sleep(2)
    except (BrokenPipeError, ConnectionResetError):
        trickle["closed_after"] = time.monotonic() - t0
    s.close()

def expect(data, prefix):
    got = ask(data)
    assert got.startswith(prefix), f"{data[:40]!r}: {got!r}"
    print(f"{data[:24]!r}... -> {got.strip()}")

expect(b"hello world\n", "bondd/1 error 400 unknown request")
expect(b"\x00\xff\x01garbage\n", "bondd/1 error 400 the request holds a byte")
expect(b"proc ../../etc/passwd\n", "bondd/1 error 400")
expect(b"proc nosuch\n", "bondd/1 error 404")
expect(b"version extra\n", "bondd/1 error 400")
expect(b"\n", "bondd/1 error 400 empty request")

# 1 MiB without a newline: an error reply, then the server stops reading.
s = conn()
big = b"A" * (1 << 20)
try:
    s.sendall(big)
except (BrokenPipeError, ConnectionResetError):
    pass
reply = b""
try:
    while True:
        chunk = s.recv(4096)
        if not chunk:
            break
        reply += chunk
except (ConnectionResetError, socket.timeout):
    pass
s.close()
assert reply.startswith(b"bondd/1 error 413"), reply[:80]
print("1 MiB request ->", reply.decode().strip())

# Pipelined requests on one connection are answered in order.
s = conn()
s.sendall(b"version\nhealth\n")
data = b""
while data.count(b"\n") < 2:
    data += s.recv(4096)
assert data.startswith(b"bondd/1 ok 0 "), data
s.close()

# Thousands of pipelined requests from a client that reads late: bondd
# stops reading its requests while 64 KiB of replies wait, then goes on,
# and every request gets its reply, in order.
s = conn()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
n = 3000
s.sendall(b"version\n" * n)
time.sleep(0.5)
data = b""
while data.count(b"\n") < 2 * n:
    chunk = s.recv(65536)
    assert chunk, "closed after %d lines" % data.count(b"\n")
    data += chunk
lines = data.split(b"\n")
assert all(lines[i].startswith(b"bondd/1 ok 0 ") for i in range(0, 2 * n, 2)), lines[:4]
print(f"{n} pipelined requests answered in order")
s.close()

# Hundreds of idle connections, and one client that asks and never reads.
idle = [conn() for _ in range(400)]
hog = conn()
hog.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
hog.sendall(b"json\n" * 200)
t0 = time.monotonic()
got = ask(b"version\n")
assert got.startswith("bondd/1 ok 0 "), got
print(f"served with 400 idle clients and a hog in {1000 * (time.monotonic() - t0):.1f} ms")
for s in idle:
    s.close()
hog.close()

trickler()
assert "closed_after" in trickle, "a client trickling a request was kept for 24 s"
print(f"a client trickling one byte every 2 s was closed after {trickle['closed_after']:.0f} s")
PY

# Still serving, and still repairing.
status --brief || fail "bondd-status failed after the abuse"
ip link set e2 nomaster
whole bond0 e1,e2 9000 >/dev/null
kill -0 "$BONDD_PID" || fail "bondd died"
