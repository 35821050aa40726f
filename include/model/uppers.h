/* SPDX-License-Identifier: MIT */
/*
 * A bond's uppers: the links the network manager stacks on bondd's bond
 * (the bridge it is a port of, the VLANs and macvlans over it), read from
 * the links bondd already observes, and what the kernel took with the bond
 * when it was deleted.  Pure: the observed links and the time are passed
 * in; the daemon keeps a struct uppers_memory per bond and logs what a
 * step says.
 *
 * Why: deleting a bond makes the kernel delete every VLAN over it
 * (net/8021q/vlan.c vlan_device_event, NETDEV_UNREGISTER) and macvlan
 * (drivers/net/macvlan.c macvlan_device_event) and drop it from its bridge
 * (net/bridge/br.c br_device_event, NETDEV_UNREGISTER: br_del_if).  bondd
 * creates the bond again, but those are the manager's, and a manager
 * without a daemon (ifupdown2) never makes them again: bondd says what went
 * and keeps saying it until they are back or a reload accepts it.
 */
#ifndef BONDD_UPPERS_H
#define BONDD_UPPERS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "observed.h"

/* Uppers remembered per bond, and lost ones kept; more are left out (and
 * the daemon says so once). */
#define UPPERS_MAX 32
/* An upper that left while the bond stayed is still counted with the bond
 * for this long: the kernel deletes a bond's VLANs before the bond itself
 * (unregister_netdevice_many_notify in net/core/dev.c sends the bond's
 * RTM_DELLINK after its NETDEV_UNREGISTER notifiers ran), and bondd may
 * read the VLAN's deletion in one wake-up and the bond's in the next.  A
 * VLAN deleted on purpose longer ago than this is the manager's business. */
#define UPPERS_GRACE_MS 2000

enum upper_kind { UPPER_BRIDGE, UPPER_VLAN, UPPER_MACVLAN, UPPER_OTHER };

struct upper {
	char name[IFNAMSIZ];
	enum upper_kind kind;
	bool port;             /* the bond is this link's port (it is the bond's master) */
	int ifindex;
	uint16_t vlan_id;      /* UPPER_VLAN */
	char link_kind[16];    /* the kernel's IFLA_INFO_KIND ("vlan", "ipvlan", ...) */
};

/* "bridge", "vlan", "macvlan", "other" (what --json says). */
const char *upper_kind_name(enum upper_kind k);

/*
 * The uppers of bond in o: its master first (a bridge, or another kind of
 * master as UPPER_OTHER), then the links whose lower link (IFLA_LINK) it is
 * and whose kind stacks on a device (vlan; macvlan and macvtap; ipvlan and
 * ipvtap as UPPER_OTHER), by name.  Up to max in out; returns how many
 * there are.
 */
size_t uppers_of(const struct observed *o, const struct obs_link *bond, struct upper *out,
		 size_t max);
/* The same, looking for the links over the bond among cand[0..n_cand)
 * only (uppers_stacked's): the daemon's every wake-up looks at every bond,
 * and a scan of every link for each of a thousand bonds would cost it
 * milliseconds at real-time priority. */
size_t uppers_of_among(const struct observed *o, const struct obs_link *bond,
		       const struct obs_link *const *cand, size_t n_cand, struct upper *out,
		       size_t max);
/* The links of o that stack on another (a stacked kind with a lower link),
 * into out (up to max); returns how many there are. */
size_t uppers_stacked(const struct observed *o, const struct obs_link **out, size_t max);

/* One remembered upper: gone_ms 0 while it is over the bond, else when it
 * left while the bond stayed (kept UPPERS_GRACE_MS, then forgotten). */
struct upper_seen {
	struct upper u;
	uint64_t gone_ms;
};

/* What the daemon keeps per bond between steps.  Zeroed: nothing known. */
struct uppers_memory {
	int bond_ifindex;      /* the bond's ifindex at the last step; 0: absent */
	struct upper_seen seen[UPPERS_MAX];
	size_t n_seen;
	/* Taken by the kernel with the bond and not back yet. */
	struct upper lost[UPPERS_MAX];
	size_t n_lost;
	bool full_said;        /* the daemon said it remembers UPPERS_MAX only */
};

/* What one step found. */
struct uppers_change {
	bool deleted;          /* the bond went since the last step (deleted, or
				* deleted and created again: another ifindex) */
	struct upper went[UPPERS_MAX];  /* what the kernel took with it */
	size_t n_went;
	struct upper back[UPPERS_MAX];  /* lost ones over the bond again */
	size_t n_back;
	size_t not_kept;       /* uppers over the bond now beyond UPPERS_MAX */
};

/*
 * One step: bond_ifindex is the bond's ifindex now (0: it does not exist),
 * now[0..n_now) its uppers now (uppers_of, cut to UPPERS_MAX; total their
 * number), now_ms a monotonic time.  A bond that went (absent, or another
 * ifindex) loses every upper it had at the last step and every one that
 * left it less than UPPERS_GRACE_MS before; a lost upper is back when one
 * of the same name and relation is over the bond again (a VLAN by that
 * name over it, the bond a port of that bridge).  An upper that leaves a
 * bond that stays is never lost: its manager deleted it.
 */
void uppers_step(struct uppers_memory *m, int bond_ifindex, const struct upper *now,
		 size_t n_now, size_t total, uint64_t now_ms, struct uppers_change *out);

/* The bond's link was renamed, not deleted (its old ifindex still exists
 * under another name): its uppers went with it, the kernel removed
 * nothing.  What was seen is forgotten, so the next step sees no deletion;
 * the lost ones are kept. */
void uppers_renamed(struct uppers_memory *m);

/* A reload accepts their absence: the lost ones are forgotten. */
void uppers_forget_lost(struct uppers_memory *m);

/*
 * v[0..n) as one line in buf: short, "bond0.21, vmbr0 (port)" (health's
 * reason); or detailed, "vlan bond0.21, bridge port of vmbr0" (the log).
 * Returns buf.
 */
const char *uppers_text(const struct upper *v, size_t n, bool detailed, char *buf, size_t len);

/* The bond's membership of its configured bridge (bridge = NAME). */
enum bridge_state {
	BRIDGE_UNSET,        /* no bridge key: bondd never touches the bond's master */
	BRIDGE_PORT,         /* the bond is a port of it */
	BRIDGE_NO_BOND,      /* the bond does not exist (yet) */
	BRIDGE_ABSENT,       /* no link by that name: nothing done until it exists */
	BRIDGE_NOT_BRIDGE,   /* a link by that name is not a bridge: left alone */
	BRIDGE_ELSEWHERE,    /* the bond is a port of another master: left there */
	BRIDGE_TO_JOIN,      /* bondd makes it a port (from no master, or from
			      * bridge_was, the bridge a previous config named) */
};

/* "port", "no-bond", "absent", "not-a-bridge", "elsewhere", "joining";
 * NULL for BRIDGE_UNSET. */
const char *bridge_state_name(enum bridge_state s);

/* Where b's bond stands with its bridge in o; *master (may be NULL) gets
 * the bond's master's name for BRIDGE_ELSEWHERE and the bridge's kind for
 * BRIDGE_NOT_BRIDGE. */
enum bridge_state bridge_state(const struct desired_bond *b, const struct observed *o,
			       const char **detail);

/* Whether the state makes the bond's health degraded: a port of another
 * master, or a link by the bridge's name that is not a bridge. */
bool bridge_state_degraded(enum bridge_state s);

#endif
