/* SPDX-License-Identifier: MIT */
/* Observed state from one dump plus events; re-dumped when events are lost. */
#include "observer.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "link_parse.h"

int observer_open(struct observer *ob, int rcvbuf, observer_change_cb cb, void *ctx)
{
	static const unsigned groups[] = {RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR, RTNLGRP_IPV6_IFADDR,
					  RTNLGRP_IPV4_ROUTE, 0};
	int err;

	memset(ob, 0, sizeof(*ob));
	ob->proc_dir = "/proc/net/bonding";
	ob->on_change = cb;
	ob->ctx = ctx;
	/* Room for the burst of a cold start or a driver reload on a big
	 * machine; an overflow is survived (observer_drain), but costs a
	 * full re-read. */
	err = nlsock_open(&ob->events, groups, rcvbuf > 0 ? rcvbuf : OBSERVER_RCVBUF);
	if (err)
		return err;
	err = nlsock_open(&ob->dump, NULL, 0);
	if (err) {
		nlsock_close(&ob->events);
		return err;
	}
	/* Events are read in a loop until EAGAIN. */
	int fd = mnl_socket_get_fd(ob->events.sk);
	struct timeval tv = {0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return 0;
}

void observer_close(struct observer *ob)
{
	nlsock_close(&ob->events);
	nlsock_close(&ob->dump);
	observed_free(&ob->state);
}

int observer_fd(const struct observer *ob)
{
	return mnl_socket_get_fd(ob->events.sk);
}

static void refresh_order(struct observer *ob, struct obs_link *bond)
{
	int n = bond_order_read(ob->proc_dir, bond->name, bond->order, BONDD_MAX_SLAVES);
	bond->n_order = n > 0 ? (size_t)n : 0;
}

static struct obs_link *find_mut(struct observed *o, int ifindex)
{
	return (struct obs_link *)observed_by_index(o, ifindex);
}

/* The order of a bond changes when a slave joins or leaves it, and the bond
 * itself is not always re-announced: re-read the order of both masters. */
static void refresh_masters(struct observer *ob, int old_master, int new_master)
{
	struct obs_link *m;

	if (old_master && (m = find_mut(&ob->state, old_master)) && !strcmp(m->kind, "bond"))
		refresh_order(ob, m);
	if (new_master && new_master != old_master &&
	    (m = find_mut(&ob->state, new_master)) && !strcmp(m->kind, "bond"))
		refresh_order(ob, m);
}

static void apply_link(struct observer *ob, const struct nlmsghdr *nlh)
{
	struct obs_link nl_link, old;
	const struct obs_link *cur;
	bool had;

	if (link_parse(nlh, &nl_link) < 0)
		return;
	cur = observed_by_index(&ob->state, nl_link.ifindex);
	had = cur != NULL;
	if (had)
		old = *cur;
	if (nlh->nlmsg_type == RTM_DELLINK) {
		if (!had)
			return;
		observed_del_link(&ob->state, nl_link.ifindex);
		route_observe_link(&ob->state, nl_link.ifindex, false);
		refresh_masters(ob, old.master, 0);
		if (ob->on_change)
			ob->on_change(ob->ctx, &old, NULL);
		return;
	}
	if (!strcmp(nl_link.kind, "bond"))
		refresh_order(ob, &nl_link);
	if (observed_put_link(&ob->state, &nl_link) < 0)
		return;
	route_observe_link(&ob->state, nl_link.ifindex, nl_link.flags & IFF_UP);
	refresh_masters(ob, had ? old.master : 0, nl_link.master);
	observed_resolve_primaries(&ob->state);
	if (ob->on_change)
		ob->on_change(ob->ctx, had ? &old : NULL, observed_by_index(&ob->state,
									    nl_link.ifindex));
}

static void apply_addr(struct observer *ob, const struct nlmsghdr *nlh)
{
	struct obs_addr a;

	if (addr_parse(nlh, &a) < 0)
		return;
	if (nlh->nlmsg_type == RTM_DELADDR)
		observed_del_addr(&ob->state, &a);
	else
		observed_put_addr(&ob->state, &a);
}

static int apply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct observer *ob = data;

	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		apply_link(ob, nlh);
		break;
	case RTM_NEWADDR:
	case RTM_DELADDR:
		apply_addr(ob, nlh);
		break;
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		route_observe_apply(&ob->state, nlh);
		break;
	}
	return MNL_CB_OK;
}

/* A fresh snapshot is built aside and then compared with the old one, so
 * the change callbacks see links that vanished while events were lost. */
int observer_sync(struct observer *ob)
{
	struct observer fresh = *ob;
	struct nlmsghdr *nlh;
	char buf[NLSOCK_MSG_SIZE];
	int err;

	memset(&fresh.state, 0, sizeof(fresh.state));
	fresh.on_change = NULL;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	err = nlsock_dump(&ob->dump, nlh, apply_cb, &fresh);
	for (int family = AF_INET; !err && family; family = family == AF_INET ? AF_INET6 : 0) {
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = RTM_GETADDR;
		struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
		ifa->ifa_family = (unsigned char)family;
		err = nlsock_dump(&ob->dump, nlh, apply_cb, &fresh);
	}
	if (!err) {
		/* Connected routes, for tcp_congestion (route_observe.h). */
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = RTM_GETROUTE;
		struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
		rtm->rtm_family = AF_INET;
		err = nlsock_dump(&ob->dump, nlh, apply_cb, &fresh);
	}
	if (err) {
		observed_free(&fresh.state);
		return err;
	}
	/* Orders were read as bonds appeared; slaves dumped after their bond
	 * were already in /proc, so one more pass is only for safety. */
	for (size_t i = 0; i < fresh.state.n_links; i++)
		if (!strcmp(fresh.state.links[i].kind, "bond"))
			refresh_order(&fresh, &fresh.state.links[i]);
	observed_resolve_primaries(&fresh.state);

	if (ob->on_change) {
		for (size_t i = 0; i < ob->state.n_links; i++) {
			const struct obs_link *old = &ob->state.links[i];
			const struct obs_link *now = observed_by_index(&fresh.state, old->ifindex);
			ob->on_change(ob->ctx, old, now);
		}
		for (size_t i = 0; i < fresh.state.n_links; i++)
			if (!observed_by_index(&ob->state, fresh.state.links[i].ifindex))
				ob->on_change(ob->ctx, NULL, &fresh.state.links[i]);
	}
	observed_free(&ob->state);
	ob->state = fresh.state;
	return 0;
}

static void discard_queued(struct observer *ob)
{
	for (;;) {
		ssize_t n = recv(observer_fd(ob), ob->events.buf, NLSOCK_BUF_SIZE, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS)
			continue; /* overflowed again while we discard: same remedy */
		if (n < 0)
			return;
	}
}

struct fetch {
	int ifindex;
	struct obs_link *out;
	bool found;
};

static int fetch_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fetch *f = data;
	if (nlh->nlmsg_type == RTM_NEWLINK && link_parse(nlh, f->out) == 0 &&
	    f->out->ifindex == f->ifindex)
		f->found = true;
	return MNL_CB_OK;
}

int observer_fetch_link(struct observer *ob, int ifindex, struct obs_link *out)
{
	char buf[NLSOCK_MSG_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct fetch f = {.ifindex = ifindex, .out = out};

	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++ob->dump.seq;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	if (mnl_socket_sendto(ob->dump.sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	ssize_t n = mnl_socket_recvfrom(ob->dump.sk, ob->dump.buf, NLSOCK_BUF_SIZE);
	if (n < 0)
		return -errno;
	int ret = mnl_cb_run(ob->dump.buf, (size_t)n, nlh->nlmsg_seq, ob->dump.portid, fetch_cb, &f);
	if (ret < 0)
		return -errno;
	return f.found ? 0 : -ENODEV;
}

int observer_resync(struct observer *ob)
{
	ob->resyncs++;
	discard_queued(ob);
	return observer_sync(ob);
}

int observer_drain(struct observer *ob)
{
	int applied = 0;

	for (;;) {
		ssize_t n = recv(observer_fd(ob), ob->events.buf, NLSOCK_BUF_SIZE, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return applied;
			if (errno == ENOBUFS) {
				/* Lost events: the stream can no longer be trusted.
				 * What is still queued predates the loss, and
				 * applied after the dump it would roll links back
				 * to states the lost events had replaced (a bond
				 * seen down forever): throw it away first.  What
				 * arrives from now on is newer than the dump or
				 * followed by a newer event, so it is safe. */
				int err = observer_resync(ob);
				if (err)
					return err;
				applied++;
				continue;
			}
			return -errno;
		}
		/* Events have seq 0 and portid 0: accept any. */
		mnl_cb_run(ob->events.buf, (size_t)n, 0, 0, apply_cb, ob);
		applied++;
	}
}
