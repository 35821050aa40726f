/* SPDX-License-Identifier: MIT */
/*
 * pingcheck ADDR [COUNT]: sends up to COUNT (5) ICMP or ICMPv6 echo
 * requests to ADDR, 100 ms apart, and exits 0 at the first echo reply from
 * ADDR, 1 when none came within 100 ms of the last request, 2 on a usage
 * or socket error.  ping(8) -c COUNT -i 0.1 succeeds on the same outcome
 * (one reply is enough); the guest has no ping, and a process costs about
 * 100 ms there, so one process does the whole check.  Needs CAP_NET_RAW.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static uint16_t csum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (n & 1)
		s += (uint32_t)(b[n - 1] << 8);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons((uint16_t)~s);
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	struct sockaddr_storage to = {0};
	socklen_t tolen;
	int count = argc > 2 ? atoi(argv[2]) : 5, fd, v6;
	uint16_t id = (uint16_t)getpid();

	if (argc < 2 || count < 1) {
		fprintf(stderr, "usage: pingcheck ADDR [COUNT]\n");
		return 2;
	}
	struct sockaddr_in *a4 = (struct sockaddr_in *)&to;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&to;
	if (inet_pton(AF_INET, argv[1], &a4->sin_addr) == 1) {
		v6 = 0;
		a4->sin_family = AF_INET;
		tolen = sizeof(*a4);
		fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	} else if (inet_pton(AF_INET6, argv[1], &a6->sin6_addr) == 1) {
		v6 = 1;
		a6->sin6_family = AF_INET6;
		tolen = sizeof(*a6);
		fd = socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
	} else {
		fprintf(stderr, "pingcheck: %s is no address\n", argv[1]);
		return 2;
	}
	if (fd < 0) {
		perror("pingcheck: socket");
		return 2;
	}
	long next = now_ms(), end = next + 100L * count;
	for (int sent = 0;;) {
		long t = now_ms();
		if (sent < count && t >= next) {
			uint8_t pkt[16] = {0};
			pkt[0] = v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
			memcpy(pkt + 4, &id, 2);
			pkt[6] = (uint8_t)(sent >> 8);
			pkt[7] = (uint8_t)sent;
			if (!v6) { /* the kernel sums ICMPv6 itself */
				uint16_t c = csum(pkt, sizeof(pkt));
				memcpy(pkt + 2, &c, 2);
			}
			if (sendto(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&to, tolen) < 0 &&
			    errno != ENETUNREACH && errno != EHOSTUNREACH && errno != ENOBUFS)
				perror("pingcheck: sendto");
			sent++;
			next = t + 100;
		}
		if (sent == count && t >= end)
			return 1;
		struct pollfd p = {fd, POLLIN, 0};
		long wait = (sent < count ? next : end) - t;
		if (poll(&p, 1, wait > 0 ? (int)wait : 0) <= 0)
			continue;
		uint8_t buf[1500];
		struct sockaddr_storage from;
		socklen_t flen = sizeof(from);
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);
		if (n <= 0)
			continue;
		const uint8_t *icmp = buf;
		if (!v6) { /* raw IPv4 sockets hand over the IP header */
			size_t hl = (size_t)(buf[0] & 0x0f) * 4;
			if ((size_t)n < hl + 8 || ((struct sockaddr_in *)&from)->sin_addr.s_addr !=
			    a4->sin_addr.s_addr)
				continue;
			icmp = buf + hl;
			if (icmp[0] == ICMP_ECHOREPLY && memcmp(icmp + 4, &id, 2) == 0)
				return 0;
		} else if (n >= 8 && memcmp(&((struct sockaddr_in6 *)&from)->sin6_addr,
					    &a6->sin6_addr, 16) == 0 &&
			   icmp[0] == ICMP6_ECHO_REPLY && memcmp(icmp + 4, &id, 2) == 0) {
			return 0;
		}
	}
}
