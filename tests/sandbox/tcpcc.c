/* SPDX-License-Identifier: MIT */
/*
 * tcpcc: which TCP congestion control a connection gets, as the kernel
 * says with getsockopt(TCP_CONGESTION).  A sandbox helper.
 *
 *   tcpcc listen ADDR PORT     accepts connections, forever
 *   tcpcc connect ADDR PORT    connects (2 s at most), prints the algorithm
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	char name[32] = "";
	socklen_t len = sizeof(name);
	int one = 1;

	if (argc != 4 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1) {
		fprintf(stderr, "usage: tcpcc listen|connect ADDR PORT\n");
		return 64;
	}
	sa.sin_port = htons((uint16_t)atoi(argv[3]));
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	if (strcmp(argv[1], "listen") == 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 64) < 0) {
			perror("listen");
			return 1;
		}
		printf("listening\n");
		fflush(stdout);
		/* Connections are accepted and left open: the client only
		 * needs the handshake to finish. */
		for (;;)
			accept(fd, NULL, NULL);
	}
	if (strcmp(argv[1], "connect") != 0) {
		fprintf(stderr, "tcpcc: unknown verb %s\n", argv[1]);
		return 64;
	}
	struct timeval tv = {.tv_sec = 2};
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("connect");
		return 1;
	}
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len) < 0) {
		perror("getsockopt TCP_CONGESTION");
		return 1;
	}
	printf("%.*s\n", (int)strnlen(name, len), name);
	close(fd);
	return 0;
}
