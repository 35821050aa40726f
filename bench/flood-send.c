/* SPDX-License-Identifier: MIT */
/*
 * flood-send IFACE lldp|probe SECONDS [SRC]: sends one kind of frame back to
 * back on IFACE for SECONDS (bench/flood.sh, from the peer's namespace in
 * the sandbox) and prints how many left.  A benchmark tool, not part of
 * bondd; shares no code with it (the frames are built here from the
 * standards: 802.1AB for LLDP, and the link check's request as
 * tests/sandbox/lc-rogue.py builds it).
 *   lldp   a well-formed LLDPDU to 01:80:c2:00:00:0e, TTL 65535, a
 *          1518-byte maximum frame size: what a forger sends
 *   probe  a link check request (EtherType 0x88b5, broadcast, 128 bytes,
 *          an answer wanted) from a made-up host that changes every frame:
 *          a stranger bondd never heard answer
 * SRC: the frames' Ethernet source address (aa:bb:cc:dd:ee:ff), a made-up
 * one (02:00:00:00:f1:02) by default: given a peer's or the host's own,
 * the flood passes the link check's flood guard's filter (linkcheck_guard.h).
 * ENOBUFS (the queue full) is retried: the count is of frames that left.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static size_t tlv(uint8_t *p, unsigned type, const void *v, size_t n)
{
	p[0] = (uint8_t)(type << 1 | (n >> 8 & 1));
	p[1] = (uint8_t)n;
	memcpy(p + 2, v, n);
	return 2 + n;
}

static size_t lldp_frame(uint8_t *f)
{
	static const uint8_t dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
	static const uint8_t chassis[7] = {4, 0x02, 0x00, 0x00, 0x00, 0xf1, 0x01};
	static const uint8_t ttl[2] = {0xff, 0xff};
	static const uint8_t maxf[6] = {0x00, 0x12, 0x0f, 4, 0x05, 0xee};
	size_t n = 14;
	memcpy(f, dst, 6);
	f[12] = 0x88;
	f[13] = 0xcc;
	n += tlv(f + n, 1, chassis, sizeof(chassis));
	n += tlv(f + n, 2, "\x05" "flood1", 7);
	n += tlv(f + n, 3, ttl, 2);
	n += tlv(f + n, 5, "flooder", 7);
	n += tlv(f + n, 127, maxf, sizeof(maxf));
	n += tlv(f + n, 0, "", 0);
	return n;
}

/* "BDLC", version 1, type 1 (request), size 0, flags 0, probe id, host id
 * (16), position, 0, length, bond (16), slave (16), padding to 128. */
static size_t probe_frame(uint8_t *f)
{
	memset(f, 0xff, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	uint8_t *p = f + 14;
	memset(p, 0, 128);
	memcpy(p, "BDLC", 4);
	p[4] = 1;
	p[5] = 1;
	p[12] = 0xee; /* host id: bytes 12..27, varied per frame */
	p[28] = 1;
	p[31] = 128;
	memcpy(p + 32, "bond0", 5);
	memcpy(p + 48, "e1", 2);
	return 14 + 128;
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: flood-send IFACE lldp|probe SECONDS [SRC]\n");
		return 64;
	}
	int probe = strcmp(argv[2], "probe") == 0;
	uint16_t type = probe ? 0x88b5 : 0x88cc;
	int s = socket(AF_PACKET, SOCK_RAW, htons(type));
	struct sockaddr_ll sa = {.sll_family = AF_PACKET, .sll_protocol = htons(type),
				 .sll_ifindex = (int)if_nametoindex(argv[1])};
	if (s < 0 || !sa.sll_ifindex || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("flood-send: socket");
		return 1;
	}
	uint8_t f[256];
	size_t n = probe ? probe_frame(f) : lldp_frame(f);
	uint8_t src[6] = {0x02, 0x00, 0x00, 0x00, 0xf1, 0x02};
	if (argc == 5 && sscanf(argv[4], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &src[0], &src[1], &src[2],
				&src[3], &src[4], &src[5]) != 6) {
		fprintf(stderr, "flood-send: not an Ethernet address: %s\n", argv[4]);
		return 64;
	}
	memcpy(f + 6, src, 6);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double secs = atof(argv[3]);
	unsigned long sent = 0;
	for (;;) {
		if ((sent & 63) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
				break;
		}
		if (probe) { /* another stranger each frame */
			uint32_t id = (uint32_t)sent;
			memcpy(f + 14 + 24, &id, 4);
			memcpy(f + 14 + 8, &id, 4);
		}
		if (send(s, f, n, 0) == (ssize_t)n)
			sent++;
		else if (errno != ENOBUFS && errno != EAGAIN)
			perror("flood-send: send");
	}
	printf("%lu\n", sent);
	return 0;
}
