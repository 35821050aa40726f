# SPDX-License-Identifier: MIT
# Counts frames for the peers' suites (tests/sandbox/scenarios/21*), where
# the upstream tests use tcpdump or a tc flower filter (the guest has
# neither tool, nor always cls_flower):
#   frame-count.py IFACE SECONDS lacpdu         frames of EtherType 0x8809
#   frame-count.py IFACE SECONDS garp ADDR [N]  ARP requests with sender and
#                                               target ADDR (gratuitous ARP)
# Prints "ready" once listening, then the count when SECONDS are over, or
# 1.5 s after the count reached N (more would still be counted then).
import select, socket, struct, sys, time

iface, seconds, what = sys.argv[1], float(sys.argv[2]), sys.argv[3]
ETH_P_ALL = 0x0003
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
s.bind((iface, 0))
print("ready", flush=True)
want_ip = socket.inet_aton(sys.argv[4]) if what == "garp" else None
enough = int(sys.argv[5]) if what == "garp" and len(sys.argv) > 5 else None
n, end = 0, time.monotonic() + seconds
while True:
    left = end - time.monotonic()
    if left <= 0:
        break
    if not select.select([s], [], [], left)[0]:
        continue
    frame, addr = s.recvfrom(2048)
    if addr[2] == socket.PACKET_OUTGOING or len(frame) < 14:
        continue
    etype = struct.unpack(">H", frame[12:14])[0]
    if what == "lacpdu" and etype == 0x8809:
        n += 1
    elif what == "garp" and etype == 0x0806 and len(frame) >= 42:
        op = struct.unpack(">H", frame[20:22])[0]
        if op == 1 and frame[28:32] == want_ip and frame[38:42] == want_ip:
            n += 1
            if enough is not None and n == enough:
                end = min(end, time.monotonic() + 1.5)
print(n, flush=True)
