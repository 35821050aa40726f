/* SPDX-License-Identifier: MIT */
/* Observed state from one dump plus events; re-dumped when events are lost. */
#include "observer.h"
#include "clock.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "link_parse.h"
#include "route_observe.h"
#include "log.h"
#include "small_file.h"

#include <stdio.h>
#include <stdlib.h>

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

int observer_learn_caps(struct kernel_caps *out)
{
	struct observer ob;
	int err = observer_open(&ob, 0, NULL, NULL);

	memset(out, 0, sizeof(*out));
	if (err)
		return err;
	err = observer_sync(&ob);
	*out = ob.caps;
	observer_close(&ob);
	return err;
}

int observer_fd(const struct observer *ob)
{
	return mnl_socket_get_fd(ob->events.sk);
}

/* An order that cannot be read is unknown: the previous one stays (a
 * bond that is gone is removed by its RTM_DELLINK, not by a failed read). */
static void refresh_order(struct observer *ob, struct obs_link *bond)
{
	int n = bond_order_read(ob->proc_dir, bond->name, bond->order, BONDD_MAX_SLAVES);
	if (n >= 0)
		bond->n_order = (size_t)n;
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

/* The kernel's dev_port is in sysfs only (net/core/net-sysfs.c dev_port),
 * and never changes while the device lives: read once per ifindex, for
 * links with a parent device (path: selectors); 0 where it is not there. */
static void learn_dev_port(struct obs_link *l, const struct obs_link *old)
{
	char path[64 + IFNAMSIZ], buf[16];

	if (old && old->dev_port >= 0) {
		l->dev_port = old->dev_port;
		return;
	}
	if (!l->id_path[0])
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/dev_port", l->name);
	l->dev_port = small_file_read(path, buf, sizeof(buf)) ? atoi(buf) : 0;
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
	if (!strcmp(nl_link.kind, "bond"))
		kernel_caps_learn(&ob->caps, &nl_link.bond);
	if (nl_link.slave.valid)
		kernel_caps_learn_slave(&ob->caps, &nl_link.slave);
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
	/* What the message leaves out is unknown, not changed: keep what an
	 * earlier message said (observed_merge_link). */
	if (had)
		observed_merge_link(&old, &nl_link);
	learn_dev_port(&nl_link, had ? &old : NULL);
	if (!strcmp(nl_link.kind, "bond"))
		refresh_order(ob, &nl_link);
	/* A slave renamed is no longer its bond's primary: the kernel drops
	 * it (drivers/net/bonding/bond_main.c bond_slave_netdev_event,
	 * NETDEV_CHANGENAME) and does not always announce the bond again. */
	if (had && nl_link.master && strcmp(old.name, nl_link.name) != 0) {
		struct obs_link *m = find_mut(&ob->state, nl_link.master);
		if (m && !strcmp(m->kind, "bond") && m->primary_ifindex == nl_link.ifindex)
			m->primary_ifindex = 0;
	}
	if (observed_put_link(&ob->state, &nl_link) < 0)
		return;
	route_observe_link(&ob->state, nl_link.ifindex, nl_link.flags & IFF_UP);
	refresh_masters(ob, had ? old.master : 0, nl_link.master);
	/* Primaries by name: this bond's, or any whose primary this link may
	 * be (a link new or renamed); not at every carrier change (a pass
	 * over every link per event made a start quadratic). */
	if (nl_link.primary_ifindex || !had || strcmp(old.name, nl_link.name) != 0)
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
	if (ob->on_touch)
		ob->on_touch(ob->ctx, a.ifindex);
}

static int apply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct observer *ob = data;

	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		if (link_msg_is_device(nlh))
			apply_link(ob, nlh);
		else
			ob->foreign_family++;
		break;
	case RTM_NEWADDR:
	case RTM_DELADDR:
		apply_addr(ob, nlh);
		break;
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		route_observe_apply(&ob->state, nlh);
		if (ob->on_touch)
			ob->on_touch(ob->ctx, 0);
		break;
	}
	return MNL_CB_OK;
}

static void note_failure(struct observer *ob, int err)
{
	if (!ob->stale_since_ms)
		ob->stale_since_ms = clock_wall_ms();
	ob->stale_err = err;
	ob->stale_failures++;
	ob->retry_at_ms = clock_mono_ms() +
			  clock_backoff_ms(ob->stale_failures, OBSERVER_RETRY_FIRST_MS,
					   OBSERVER_RETRY_MAX_MS);
}

static int dump_once(struct observer *ob, struct observer *fresh)
{
	struct nlmsghdr *nlh;
	char buf[NLSOCK_MSG_SIZE];
	int err;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	err = nlsock_dump(&ob->dump, nlh, apply_cb, fresh);
	for (int family = AF_INET; !err && family; family = family == AF_INET ? AF_INET6 : 0) {
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = RTM_GETADDR;
		struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
		ifa->ifa_family = (unsigned char)family;
		err = nlsock_dump(&ob->dump, nlh, apply_cb, fresh);
	}
	if (!err) {
		/* Connected routes, for tcp_congestion (route_observe.h). */
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = RTM_GETROUTE;
		struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
		rtm->rtm_family = AF_INET;
		err = nlsock_dump(&ob->dump, nlh, apply_cb, fresh);
	}
	return err;
}

/* A fresh snapshot is built aside and then compared with the old one, so
 * the change callbacks see links that vanished while events were lost. */
int observer_sync(struct observer *ob)
{
	struct observer fresh;
	int err;

	/* An interrupted dump (links came or went while it was taken) may
	 * have missed a link or shown one twice: take it again, a bounded
	 * number of times, each time from nothing. */
	for (int attempt = 1;; attempt++) {
		fresh = *ob;
		memset(&fresh.state, 0, sizeof(fresh.state));
		fresh.on_change = NULL;
		fresh.on_touch = NULL;
		err = dump_once(ob, &fresh);
		ob->caps = fresh.caps;
		ob->foreign_family = fresh.foreign_family;
		if (err != -EINTR)
			break;
		ob->dumps_interrupted++;
		observed_free(&fresh.state);
		log_warn("links changed while they were dumped (NLM_F_DUMP_INTR, %lu so far)%s",
			 ob->dumps_interrupted,
			 attempt < OBSERVER_DUMP_TRIES ? "; dumping again" : "; giving up for now");
		if (attempt >= OBSERVER_DUMP_TRIES)
			break;
	}
	if (err) {
		observed_free(&fresh.state);
		note_failure(ob, err);
		return err;
	}
	ob->stale_since_ms = 0;
	ob->stale_err = 0;
	ob->stale_failures = 0;
	/* What the dump leaves out of a link that is still there is unknown,
	 * not changed, as for events. */
	for (size_t i = 0; i < fresh.state.n_links; i++) {
		const struct obs_link *old = observed_by_index(&ob->state,
							       fresh.state.links[i].ifindex);
		if (old)
			observed_merge_link(old, &fresh.state.links[i]);
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
	bool kernel;

	for (;;) {
		ssize_t n = nlsock_recv(&ob->events, true, &kernel);
		/* ENOBUFS: overflowed again while we discard, same remedy;
		 * EMSGSIZE: a truncated datagram, thrown away anyway. */
		if (n < 0 && n != -ENOBUFS && n != -EMSGSIZE)
			return;
	}
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
	bool kernel;

	for (;;) {
		ssize_t n = nlsock_recv(&ob->events, true, &kernel);
		if (n == -EAGAIN || n == -EWOULDBLOCK)
			return applied;
		if (n == -ENOBUFS || n == -EMSGSIZE) {
			/* Lost events (an overflow, or a datagram cut short):
			 * the stream can no longer be trusted.  What is still
			 * queued predates the loss, and applied after the dump
			 * it would roll links back to states the lost events
			 * had replaced (a bond seen down forever): throw it
			 * away first.  What arrives from now on is newer than
			 * the dump or followed by a newer event, so it is safe. */
			int err = observer_resync(ob);
			if (err)
				return err;
			applied++;
			continue;
		}
		if (n < 0)
			return (int)n;
		if (!kernel)
			continue; /* only the kernel sends events */
		/* Events carry seq 0, or the seq and port of the request that
		 * caused them (ours or another process's): accept any. */
		const struct nlmsghdr *nlh = (const void *)ob->events.buf;
		int left = (int)n;
		for (; nlsock_msg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
			if (nlh->nlmsg_type >= NLMSG_MIN_TYPE)
				apply_cb(nlh, ob);
		applied++;
	}
}
