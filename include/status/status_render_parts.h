/* SPDX-License-Identifier: MIT */
/*
 * What the status renderers share: one bond's facts looked up in a
 * status_view (status_render.c).  Private to src/status/.
 */
#ifndef BONDD_STATUS_RENDER_PARTS_H
#define BONDD_STATUS_RENDER_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status_render.h"

/* LACP port state bits (AD_STATE_* in include/net/bond_3ad.h). */
#define AD_STATE_SYNCHRONIZATION 0x08
#define AD_STATE_DEFAULTED 0x40

const struct bond_runtime *view_bond_rt(const struct status_view *v,
					  const struct desired_bond *b);

const struct link_runtime *view_link_rt(const struct status_view *v, const char *name);

const struct obs_link *view_obs_bond(const struct status_view *v, const char *name);

size_t view_position(const struct obs_link *bond, const char *name);

void view_link_live(const struct status_view *v, const struct obs_link *s,
		      struct link_live *out);

bool view_is_8023ad(const struct obs_link *bond);

bool view_lacp_problem(const struct obs_link *bond, const struct obs_link *s, char *why,
			 size_t len);

bool view_slave_up(const struct obs_link *bond, const struct obs_link *s);

const char *view_mac_text(const uint8_t mac[6], char buf[18]);

size_t view_slaves_up(const struct status_view *v, const struct desired_bond *b);

const char *view_mode_of(const struct obs_link *bond, const struct desired_bond *b);

void view_json_text(struct strbuf *out, const struct status_view *v, const char *text);

#endif
