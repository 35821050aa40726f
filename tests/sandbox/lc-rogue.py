# SPDX-License-Identifier: MIT
# A hostile station for the link check's sandbox scenarios: crafts probe
# frames (tests/sandbox/scenarios/181-*) on a raw packet socket.
#   lc-rogue.py bad IFACE                 malformed frames; prints how many
#   lc-rogue.py capture IFACE HOSTHEX OUT SLAVE  saves the first request of
#                                         host HOSTHEX's SLAVE seen on IFACE
#                                         (OUT.ready: it listens)
#   lc-rogue.py answer IFACE HOSTHEX SECONDS READY  answers HOSTHEX's
#                                         requests with 128 bytes, whatever
#                                         their size (READY: it listens)
#   lc-rogue.py replay IFACE FILE SECONDS sends FILE's frame every 5 ms
#                                         (FILE.sending: it has begun)
#   lc-rogue.py probe IFACE               one small request asking to be
#                                         probed back, from a made-up host
#                                         (ee...) that never answers
#   lc-rogue.py wishes IFACE COUNT INTERVAL  COUNT small requests asking to
#                                         be probed back, each from another
#                                         made-up host (dd...01, dd...02, ...)
#                                         that never answers, INTERVAL s apart
#   lc-rogue.py flood IFACE SECONDS HOSTS READY RATE  requests from HOSTS
#                                         fake hosts in turn, RATE a second,
#                                         evenly (READY: a file made after
#                                         the first 10 ms); prints the count
import os, socket, struct, sys, time

ETH = 0x88B5

def name(s):
    b = s if isinstance(s, bytes) else s.encode()
    return b + bytes(16 - len(b))

def request(host, bond="bond0", slave="e1", pos=1, probe=7, flags=0, size=0,
            length=128, version=1, to=b""):
    hdr = (b"BDLC" + bytes([version, 1, size, flags]) + struct.pack(">I", probe) + host +
           bytes([pos, 0]) + struct.pack(">H", length) + name(bond) + name(slave) + to)
    return hdr + bytes(max(length, 128) - len(hdr))

def sock(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH))
    s.bind((iface, ETH))
    return s

def frame(src, payload, dst=b"\xff" * 6):
    return dst + src + struct.pack(">H", ETH) + payload

mode, iface = sys.argv[1], sys.argv[2]
s = sock(iface)
src = b"\x02\x00\x00\x00\x00\x01"
if mode == "bad":
    h = bytes(range(1, 17))
    good = request(h)
    bad = [
        good[:60],                                       # shorter than a header
        good[:30] + struct.pack(">H", 4000) + good[32:], # length beyond the frame
        request(h, slave=b"e" * 16),                     # no terminator
        request(h, slave=b"e\x1b[31m1"),                 # control characters
        request(h, slave=b"e\xff\xfe1"),                 # not UTF-8
        request(h, bond=b"bond0\n<b>"),                  # a newline
        request(h, version=2),                           # unknown version
        request(h, to=b"\x01" * 16),                     # a request with answer fields
    ]
    for p in bad:
        s.send(frame(src, p))
    print(len(bad))
elif mode == "capture":
    host, out, want = bytes.fromhex(sys.argv[3]), sys.argv[4], name(sys.argv[5])
    s.settimeout(8)
    open(out + ".ready", "w").close()
    while True:
        p = s.recv(70000)[14:]
        if p[:4] == b"BDLC" and p[5] == 1 and p[12:28] == host and p[48:64] == want:
            open(out, "wb").write(p)
            break
elif mode == "answer":
    # For SECONDS, answers every request of host HOSTHEX at every size
    # class with a 128-byte frame from a made-up host (cc...).
    host, secs, ready = bytes.fromhex(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    s.settimeout(0.2)
    open(ready, "w").close()
    end = time.monotonic() + secs
    while time.monotonic() < end:
        try:
            p = s.recv(70000)[14:]
        except socket.timeout:
            continue
        if p[:4] != b"BDLC" or p[5] != 1 or p[12:28] != host:
            continue
        to = p[12:28] + p[32:48] + p[48:64] + p[28:29]
        for size in (0, 1, 2):
            a = bytearray(request(b"\xcc" * 16, probe=struct.unpack(">I", p[8:12])[0],
                                  size=size, to=to))
            a[5] = 2
            s.send(frame(src, bytes(a)))
elif mode == "replay":
    p = open(sys.argv[3], "rb").read()
    end = time.monotonic() + float(sys.argv[4])
    s.send(frame(src, p))
    open(sys.argv[3] + ".sending", "w").close()
    while time.monotonic() < end:
        s.send(frame(src, p))
        time.sleep(0.005)
elif mode == "probe":
    s.send(frame(src, request(b"\xee" * 16, flags=1, probe=11)))
elif mode == "wishes":
    for i in range(int(sys.argv[3])):
        if i:
            time.sleep(float(sys.argv[4]))
        s.send(frame(bytes([2, 0, 0, 2, 0, i + 1]),
                     request(b"\xdd" * 15 + bytes([i + 1]), flags=1, probe=100 + i)))
elif mode == "flood":
    n = int(sys.argv[4])
    # Names with a quote and a backslash: valid interface names
    # (net/core/dev.c dev_valid_name), to be escaped in every output.
    frames = [frame(bytes([2, 0, 0, 1, i >> 8, i & 0xff]),
                    request(os.urandom(16), bond='b"0', slave="e\\1", flags=i & 1, probe=i))
              for i in range(n)]
    rate = float(sys.argv[6])
    # Spread evenly, a chunk every 10 ms, the hosts in turn: any span of
    # a check's sees rate x span requests from as many hosts (up to n),
    # where rounds of n in one burst each n / rate s left a check between
    # two bursts with part of one (sandbox 181's row under the budget).
    chunk = max(1, int(rate / 100))
    start = time.monotonic()
    end, sent = start + float(sys.argv[3]), 0
    while time.monotonic() < end:
        for _ in range(chunk):
            s.send(frames[sent % n])
            sent += 1
        if sent == chunk:
            open(sys.argv[5], "w").close()
        time.sleep(max(0, start + sent / rate - time.monotonic()))
    print(sent)
