/* SPDX-License-Identifier: MIT */
/* The findings list: adding, naming, and rendering for the status socket. */
#include "findings.h"
#include "grow.h"

#include "json_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void findings_free(struct findings *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void findings_clear(struct findings *f)
{
	f->n = 0;
}

struct finding *findings_add(struct findings *f, enum finding_source source,
			     enum finding_severity severity, enum finding_kind kind,
			     const char *bond)
{
	struct finding *x = grow_append(&f->v, &f->cap, &f->n, sizeof(*x), 8, NULL);
	if (!x)
		return NULL;
	x->source = source;
	x->severity = severity;
	x->kind = kind;
	snprintf(x->bond, sizeof(x->bond), "%s", bond ? bond : "");
	return x;
}

void finding_add_slave(struct finding *x, const char *slave)
{
	if (x->n_slaves < FINDING_MAX_SLAVES)
		snprintf(x->slaves[x->n_slaves++], IFNAMSIZ, "%s", slave);
}

const char *finding_kind_name(enum finding_kind k)
{
	static const char *const names[FK__COUNT] = {
		[FK_SHARED_DOMAIN] = "shared-domain",
		[FK_JUMBO_DROPPED] = "jumbo-dropped",
		[FK_CROSSED] = "crossed",
		[FK_UNREACHABLE] = "unreachable",
		[FK_ONE_WAY] = "one-way",
		[FK_SWITCH_LAG] = "switch-lag",
		[FK_SHARED_CARD] = "shared-card",
		[FK_SPEED_MISMATCH] = "speed-mismatch",
		[FK_DUPLEX_MISMATCH] = "duplex-mismatch",
		[FK_MODE_NO_STRIPE] = "mode-no-stripe",
		[FK_TCP_SETTING] = "tcp-setting",
		[FK_SLAVE_ERRORS] = "slave-errors",
		[FK_LLDP_MAX_FRAME] = "switch-max-frame",
		[FK_LLDP_SAME_PORT] = "same-switch-port",
		[FK_LLDP_ONE_VLAN] = "switch-one-vlan",
		[FK_LLDP_CHANGED] = "neighbour-changed",
		[FK_LLDP_SEVERAL] = "several-neighbours",
	};
	return (unsigned)k < FK__COUNT && names[k] ? names[k] : "unknown";
}

const char *finding_source_name(enum finding_source s)
{
	return s == FSRC_LINK_CHECK ? "link_check" : s == FSRC_HOST_CHECK ? "host_check" :
	       s == FSRC_COUNTERS   ? "counters" : s == FSRC_LLDP ? "lldp" : "unknown";
}

const char *finding_severity_name(enum finding_severity s)
{
	return s == FSEV_DEGRADED ? "degraded" : "info";
}

size_t findings_about(const struct findings *const *lists, size_t n, const char *bond,
		      const struct finding **out)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; lists[i] && j < lists[i]->n; j++)
			if (strcmp(lists[i]->v[j].bond, bond) == 0) {
				if (out)
					out[found] = &lists[i]->v[j];
				found++;
			}
	return found;
}

static void finding_json(struct strbuf *out, const struct finding *x)
{
	sb_puts(out, "{\"source\":");
	json_string(out, finding_source_name(x->source));
	sb_puts(out, ",\"kind\":");
	json_string(out, finding_kind_name(x->kind));
	sb_puts(out, ",\"severity\":");
	json_string(out, finding_severity_name(x->severity));
	sb_puts(out, ",\"slaves\":[");
	for (size_t k = 0; k < x->n_slaves; k++) {
		sb_puts(out, k ? "," : "");
		json_string(out, x->slaves[k]);
	}
	sb_puts(out, "],\"evidence\":");
	json_string(out, x->evidence);
	sb_puts(out, ",\"fix\":");
	json_string(out, x->fix);
	sb_printf(out, ",\"pending\":%s}", x->pending ? "true" : "false");
}

void findings_json(struct strbuf *out, const struct finding *const *v, size_t n)
{
	sb_puts(out, "[");
	for (size_t i = 0; i < n; i++) {
		sb_puts(out, i ? "," : "");
		finding_json(out, v[i]);
	}
	sb_puts(out, "]");
}

bool findings_has(const struct findings *f, const struct finding *x, size_t *hint)
{
	for (size_t k = 0; k < f->n; k++) {
		size_t i = (*hint + k) % f->n;
		if (f->v[i].kind == x->kind && strcmp(f->v[i].bond, x->bond) == 0 &&
		    strcmp(f->v[i].evidence, x->evidence) == 0) {
			*hint = i + 1;
			return true;
		}
	}
	return false;
}
