# SPDX-License-Identifier: MIT
# A switch port's LLDP for the sandbox scenarios (tests/sandbox/scenarios/200-*):
# frames built here, sent on a raw packet socket from the switch side.
#   lldp-send.py good IFACE CHASSIS-MAC NAME PORT DESCR PVID MAXFRAME TTL
#       one LLDPDU (PVID or MAXFRAME "-": that TLV left out)
#   lldp-send.py bad IFACE        malformed LLDPDUs; prints how many were sent
#   lldp-send.py flood IFACE N CHASSIS-MAC NAME PORT DESCR PVID MAXFRAME TTL
#       N of that LLDPDU back to back; prints how many were sent
# Options before the mode, for good:
#   --twice      the LLDPDU again 1.2 s later (bondd confirms a verdict on
#                frames that agree over 1 s: lldp_eval.h)
#   --src MAC    the frame's Ethernet source (default: IFACE's own address)
import socket, struct, sys, time

ETH = 0x88CC
DST = bytes.fromhex("0180c200000e")

def tlv(t, value):
    return struct.pack(">H", t << 9 | len(value)) + value

def mac(text):
    return bytes.fromhex(text.replace(":", ""))

def lldpdu(chassis, name, port, descr="", pvid=None, max_frame=None, ttl=120):
    b = tlv(1, b"\x04" + mac(chassis)) + tlv(2, b"\x05" + port.encode())
    b += tlv(3, struct.pack(">H", ttl))
    if descr:
        b += tlv(4, descr.encode())
    b += tlv(5, name.encode())
    if pvid is not None:
        b += tlv(127, b"\x00\x80\xc2\x01" + struct.pack(">H", pvid))
    if max_frame is not None:
        b += tlv(127, b"\x00\x12\x0f\x04" + struct.pack(">H", max_frame))
    return b + tlv(0, b"")

def sock(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH))
    s.bind((iface, ETH))
    return s, s.getsockname()[4]

def frame(src, payload, dst=DST):
    return dst + src + struct.pack(">H", ETH) + payload

def main():
    args, twice, src_opt = sys.argv[1:], False, None
    while args and args[0].startswith("--"):
        if args[0] == "--twice":
            twice, args = True, args[1:]
        elif args[0] == "--src":
            src_opt, args = mac(args[1]), args[2:]
        else:
            sys.exit("lldp-send.py: unknown option " + args[0])
    sys.argv = sys.argv[:1] + args
    mode, iface = sys.argv[1], sys.argv[2]
    s, src = sock(iface)
    src = src_opt or src
    if mode in ("good", "flood"):
        n = 1 if mode == "good" else int(sys.argv[3])
        n += twice
        chassis, name, port, descr, pvid, mf, ttl = sys.argv[3 + (mode == "flood"):]
        f = frame(src, lldpdu(chassis, name, port, descr,
                              None if pvid == "-" else int(pvid),
                              None if mf == "-" else int(mf), int(ttl)))
        sent = 0
        for i in range(n):
            if twice and i == n - 1:
                time.sleep(1.2)
            try:
                s.send(f)
                sent += 1
            except OSError as e:
                if e.errno != 105:  # ENOBUFS: the receiver's queue is full
                    raise
        if mode == "flood":
            print(sent)
    elif mode == "bad":
        ok = lldpdu("02:00:00:00:aa:01", "evil", "x1")
        bad = [
            b"",                                         # no TLV at all
            ok[:5],                                      # cut inside the Chassis ID
            tlv(2, b"\x05p1") + tlv(1, b"\x04" + bytes(6)) + tlv(3, b"\x00\x78"),  # order
            tlv(1, b"\x04" + bytes(6)) + tlv(2, b"") + tlv(3, b"\x00\x78"),  # empty Port ID
            tlv(1, b"\x04" + bytes(6)) + tlv(2, b"\x05p1") + tlv(3, b"\x00"),  # short TTL
            tlv(1, b"\x04" + bytes(6)) + struct.pack(">H", 2 << 9 | 300) + b"\x05p",  # past the end
            tlv(1, b"\x04" + bytes(6)) + tlv(2, b"\x05p1") + tlv(3, b"\x00\x78") +
            tlv(1, b"\x04" + bytes(6)),                  # a mandatory TLV repeated
        ]
        for b in bad:
            s.send(frame(src, b))
        # a good LLDPDU to another group address (nearest customer bridge)
        s.send(frame(src, ok, dst=bytes.fromhex("0180c2000000")))
        # longer than any LLDPDU may be (where IFACE's MTU lets it out)
        n = len(bad) + 1
        try:
            s.send(frame(src, ok + bytes(1600 - len(ok))))
            n += 1
        except OSError as e:
            if e.errno != 90:  # EMSGSIZE
                raise
        print(n)
    else:
        sys.exit("usage: lldp-send.py good|bad|flood IFACE ...")

main()
