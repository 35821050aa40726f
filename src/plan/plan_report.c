/* SPDX-License-Identifier: MIT */
/* The plan as data, and its two printers (plan_report.h). */
#include "plan_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "plan.h"

static struct plan_report_bond *find_or_add(struct plan_report *r, const char *name,
					    size_t cap)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		if (strcmp(r->bonds[i].name, name) == 0)
			return &r->bonds[i];
	if (r->n_bonds == cap)
		return NULL;
	struct plan_report_bond *b = &r->bonds[r->n_bonds++];
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

int plan_report_build(const struct desired *want, const struct action_list *plan,
		      struct plan_report *r)
{
	/* At most one bond per configured bond, action and note. */
	size_t cap = want->n_bonds + plan->n + plan->n_notes;

	memset(r, 0, sizeof(*r));
	if ((cap && !(r->bonds = calloc(cap, sizeof(*r->bonds)))) ||
	    (plan->n && !(r->actions = calloc(plan->n, sizeof(*r->actions))))) {
		plan_report_free(r);
		return -ENOMEM;
	}
	r->plan = plan;
	for (size_t i = 0; i < want->n_bonds; i++)
		find_or_add(r, want->bonds[i].name, cap);
	/* Sized first, so that pointers into the arrays stay put. */
	for (size_t i = 0; i < plan->n; i++)
		find_or_add(r, plan->v[i].bond, cap)->n_actions++;
	for (size_t i = 0; i < plan->n_notes; i++)
		find_or_add(r, plan->notes[i].bond, cap)->n_notes++;
	for (size_t i = 0; i < r->n_bonds; i++) {
		struct plan_report_bond *b = &r->bonds[i];
		if ((b->n_actions && !(b->actions = calloc(b->n_actions, sizeof(*b->actions)))) ||
		    (b->n_notes && !(b->notes = calloc(b->n_notes, sizeof(*b->notes))))) {
			plan_report_free(r);
			return -ENOMEM;
		}
		b->n_actions = b->n_notes = 0;
	}
	for (size_t i = 0; i < plan->n; i++) {
		struct plan_report_bond *b = find_or_add(r, plan->v[i].bond, cap);
		bool disrupts = plan_action_disrupts(&plan->v[i]);
		r->actions[i] = (struct plan_report_action){&plan->v[i], disrupts};
		b->actions[b->n_actions++] = &r->actions[i];
		b->n_disrupting += disrupts;
		r->n_disrupting += disrupts;
	}
	for (size_t i = 0; i < plan->n_notes; i++) {
		struct plan_report_bond *b = find_or_add(r, plan->notes[i].bond, cap);
		b->notes[b->n_notes++] = &plan->notes[i];
	}
	r->n_actions = plan->n;
	r->n_notes = plan->n_notes;
	return 0;
}

/* The strongest thing the bond's actions do to it. */
static enum plan_upper_effect bond_effect(const struct plan_report_bond *b)
{
	enum plan_upper_effect e = PUE_NONE;

	for (size_t i = 0; i < b->n_actions; i++) {
		const struct action *a = b->actions[i]->a;
		if (a->kind == ACT_DELETE_BOND && strcmp(a->ifname, b->name) == 0)
			return PUE_DELETED;
		if (a->kind == ACT_LINK_DOWN && strcmp(a->ifname, b->name) == 0)
			e = PUE_DOWN;
		else if (e == PUE_NONE && a->kind == ACT_SET_OPTS && a->why &&
			 strcmp(a->why, "rebuild") == 0)
			e = PUE_NO_CARRIER;
	}
	return e;
}

int plan_report_uppers(struct plan_report *r, const struct observed *have)
{
	for (size_t i = 0; i < r->n_bonds; i++) {
		struct plan_report_bond *b = &r->bonds[i];
		const struct obs_link *l = observed_by_name(have, b->name);
		b->effect = l && strcmp(l->kind, "bond") == 0 ? bond_effect(b) : PUE_NONE;
		if (b->effect == PUE_NONE)
			continue;
		size_t n = uppers_of(have, l, NULL, 0);
		if (!n)
			continue;
		if (!(b->uppers = calloc(n, sizeof(*b->uppers))))
			return -ENOMEM;
		b->n_uppers = uppers_of(have, l, b->uppers, n);
	}
	return 0;
}

const char *plan_upper_effect_name(enum plan_upper_effect e)
{
	switch (e) {
	case PUE_NONE: break;
	case PUE_DOWN: return "down";
	case PUE_NO_CARRIER: return "no-carrier";
	case PUE_DELETED: return "deleted";
	}
	return NULL;
}

/*
 * What the kernel does to an upper when its lower link is set down
 * (net/8021q/vlan.c vlan_device_event: NETDEV_DOWN sets each VLAN down,
 * NETDEV_UP sets it up again unless it has loose_binding; a VLAN set down
 * loses its IPv6 addresses with net.ipv6.conf.*.keep_addr_on_down 0,
 * net/ipv6/addrconf.c addrconf_ifdown, and every route through it,
 * net/ipv4/fib_frontend.c fib_disable_ip; "may": on 7.2.7 a bond down and
 * up again within a millisecond or two left a VLAN its IPv6 address in 1
 * try of 6, measured in the sandbox), loses carrier (a macvlan or
 * ipvlan follows its lower's carrier, netif_stacked_transfer_operstate),
 * or is deleted (NETDEV_UNREGISTER: vlan_device_event,
 * macvlan_device_event, net/bridge/br.c br_device_event drops the port).
 */
const char *plan_upper_loss(enum plan_upper_effect e, const struct upper *u)
{
	switch (e) {
	case PUE_NONE:
		break;
	case PUE_DOWN:
		if (u->port)
			return u->kind == UPPER_BRIDGE ?
				       "its port is disabled while the bond is down, and forwards "
				       "again only after the bridge's forward delay when STP is on" :
				       "its port is down while the bond is down";
		if (u->kind == UPPER_VLAN)
			return "set down with the bond and up again after it: may lose its IPv6 "
			       "addresses (keep_addr_on_down 0) and the routes through it";
		return "has no carrier while the bond is down";
	case PUE_NO_CARRIER:
		return u->port ? "its port has no carrier while the bond has no slave" :
				 "has no carrier while the bond has no slave";
	case PUE_DELETED:
		if (u->port)
			return "the bond is no longer its port";
		return "deleted by the kernel with the bond, with its addresses and routes";
	}
	return "";
}

void plan_report_free(struct plan_report *r)
{
	for (size_t i = 0; i < r->n_bonds; i++) {
		free(r->bonds[i].uppers);
		free(r->bonds[i].actions);
		free(r->bonds[i].notes);
	}
	free(r->bonds);
	free(r->actions);
	memset(r, 0, sizeof(*r));
}

bool plan_report_changes(const struct plan_report *r)
{
	return r->n_actions > 0;
}

/* Actions in the order they would be taken, then the notes: scenario 149
 * compares the lines with a start's "apply:" lines. */
void plan_report_text(const struct plan_report *r, struct strbuf *out)
{
	char desc[256];

	for (size_t i = 0; i < r->n_actions; i++) {
		const struct plan_report_action *pa = &r->actions[i];
		sb_printf(out, "%s: %s%s\n", pa->a->bond, action_describe(pa->a, desc, sizeof(desc)),
			  pa->disrupts ? "  [disrupts traffic]" : "");
	}
	for (size_t i = 0; i < r->n_notes; i++) {
		const struct plan_note *n = &r->plan->notes[i];
		sb_printf(out, "%s: %s: %s\n", n->bond, n->ifname, n->msg);
	}
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct plan_report_bond *b = &r->bonds[i];
		for (size_t j = 0; j < b->n_uppers; j++) {
			char what[IFNAMSIZ + 24];
			sb_printf(out, "%s: takes down %s: %s\n", b->name,
				  uppers_text(&b->uppers[j], 1, true, what, sizeof(what)),
				  plan_upper_loss(b->effect, &b->uppers[j]));
		}
	}
	if (r->n_actions == 0)
		sb_puts(out, "nothing to do: the kernel matches the configuration\n");
	else
		sb_printf(out, "%zu action%s, %zu disrupting traffic; none taken\n", r->n_actions,
			  r->n_actions == 1 ? "" : "s", r->n_disrupting);
}

static void json_action(struct strbuf *out, const struct plan_report_action *pa)
{
	char desc[256];

	sb_puts(out, "{\"action\":");
	json_string(out, action_kind_name(pa->a->kind));
	sb_puts(out, ",\"interface\":");
	json_string(out, pa->a->ifname);
	sb_puts(out, ",\"reason\":");
	json_string(out, pa->a->why ? pa->a->why : "");
	sb_printf(out, ",\"disrupts_traffic\":%s,\"description\":",
		  pa->disrupts ? "true" : "false");
	json_string(out, action_describe(pa->a, desc, sizeof(desc)));
	sb_puts(out, "}");
}

void plan_report_json(const struct plan_report *r, struct strbuf *out)
{
	sb_printf(out, "{\"plan\":%d,\"changes\":%s,\"actions\":%zu,\"disrupting\":%zu,"
		  "\"bonds\":[", PLAN_REPORT_VERSION, plan_report_changes(r) ? "true" : "false",
		  r->n_actions, r->n_disrupting);
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct plan_report_bond *b = &r->bonds[i];
		sb_puts(out, i ? ",{\"name\":" : "{\"name\":");
		json_string(out, b->name);
		sb_printf(out, ",\"changes\":%s,\"disrupts_traffic\":%s,\"actions\":[",
			  b->n_actions ? "true" : "false", b->n_disrupting ? "true" : "false");
		for (size_t j = 0; j < b->n_actions; j++) {
			if (j)
				sb_puts(out, ",");
			json_action(out, b->actions[j]);
		}
		sb_puts(out, "],\"uppers_affected\":[");
		for (size_t j = 0; j < b->n_uppers; j++) {
			const struct upper *u = &b->uppers[j];
			sb_puts(out, j ? ",{\"name\":" : "{\"name\":");
			json_string(out, u->name);
			sb_printf(out, ",\"kind\":\"%s\",\"ifindex\":%d", upper_kind_name(u->kind),
				  u->ifindex);
			if (u->kind == UPPER_VLAN)
				sb_printf(out, ",\"vlan_id\":%u", (unsigned)u->vlan_id);
			sb_printf(out, ",\"port\":%s,\"effect\":\"%s\",\"loses\":",
				  u->port ? "true" : "false", plan_upper_effect_name(b->effect));
			json_string(out, plan_upper_loss(b->effect, u));
			sb_puts(out, "}");
		}
		sb_puts(out, "],\"notes\":[");
		for (size_t j = 0; j < b->n_notes; j++) {
			sb_puts(out, j ? ",{\"interface\":" : "{\"interface\":");
			json_string(out, b->notes[j]->ifname);
			sb_puts(out, ",\"message\":");
			json_string(out, b->notes[j]->msg);
			sb_puts(out, "}");
		}
		sb_puts(out, "]}");
	}
	sb_puts(out, "]}\n");
}
