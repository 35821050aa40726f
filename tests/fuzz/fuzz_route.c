/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: bytes as the kernel could send them on the route event
 * socket.  The input is one netlink message (its length field set to the
 * input's size, as the receive path guarantees) and goes through the route
 * parser and into an observed list, as the observer applies it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "observed.h"
#include "route_observe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct observed o;
	uint32_t buf[4096 / 4] = {0}; /* libmnl walks to the aligned end */
	struct obs_route r;

	if (size < sizeof(struct nlmsghdr) || size > sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	nlh->nlmsg_len = (uint32_t)size;
	if (route_parse(nlh, &r) == 0) {
		if (strnlen(r.cc_algo, sizeof(r.cc_algo)) == sizeof(r.cc_algo) || !r.oif)
			__builtin_trap();
	}
	route_observe_apply(&o, nlh);
	if (o.n_routes > 64)
		observed_free(&o); /* and starts again empty */
	return 0;
}
