/* SPDX-License-Identifier: MIT */
/* Connected routes from rtnetlink into the observed list (model/routes.h). */
#ifndef BONDD_ROUTE_OBSERVE_H
#define BONDD_ROUTE_OBSERVE_H

#include "routes.h"

struct nlmsghdr;
struct observed;

/* Parses RTM_NEWROUTE/RTM_DELROUTE into *out.  0, or -ENOENT for a route
 * that is not kept (see routes.h), -EINVAL for a malformed message. */
int route_parse(const struct nlmsghdr *nlh, struct obs_route *out);

/* Applies an RTM_NEWROUTE/RTM_DELROUTE event or dump message to o. */
void route_observe_apply(struct observed *o, const struct nlmsghdr *nlh);

#endif
