/* SPDX-License-Identifier: MIT */
/* --prometheus: the text exposition format, one family per metric. */
#include "status_render.h"
#include "prom_text.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "json_text.h"
#include "lldp_render.h"

/* --- Prometheus ------------------------------------------------------- */

/* A bond's samples carry master and device both set to the bond, a
 * slave's carry master (its bond) and device (the slave): prom_text.h. */
static void sample(struct strbuf *out, const char *metric, const char *bond,
		   const char *slave, unsigned long long value)
{
	prom_sample(out, metric, bond, slave ? slave : bond, NULL, NULL, value);
}

enum bond_metric {
	BM_HEALTH, BM_UP, BM_MTU, BM_SLAVES_CONFIGURED, BM_SLAVES_UP, BM_ACTIONS, BM_ERRORS,
	BM_CARRIER_CHANGES, BM_AD_AGGREGATOR, BM_MAC_KEPT, BM__COUNT
};

static const struct {
	const char *name, *type, *help;
} bond_metrics[BM__COUNT] = {
	[BM_HEALTH] = {"bondd_bond_health", "gauge", "0 healthy, 1 degraded, 2 down or missing (bondd-status exit codes)"},
	[BM_UP] = {"bondd_bond_up", "gauge", "1 when the bond exists, is up and has carrier"},
	[BM_MTU] = {"bondd_bond_mtu_bytes", "gauge", "the bond's MTU in the kernel"},
	[BM_SLAVES_CONFIGURED] = {"bondd_bond_slaves_configured", "gauge", "slaves in the config"},
	[BM_SLAVES_UP] = {"bondd_bond_slaves_up", "gauge", "configured slaves enslaved with MII status up"},
	[BM_ACTIONS] = {"bondd_bond_actions_total", "counter", "kernel requests bondd made for the bond"},
	[BM_ERRORS] = {"bondd_bond_errors_total", "counter", "kernel requests for the bond that failed"},
	[BM_CARRIER_CHANGES] = {"bondd_bond_carrier_changes_total", "counter", "the kernel's count of the bond's carrier changes"},
	[BM_AD_AGGREGATOR] = {"bondd_bond_ad_aggregator_id", "gauge", "802.3ad: the active aggregator's id"},
	[BM_MAC_KEPT] = {"bondd_bond_mac_address_kept", "gauge", "mac_address: 1 when the bond has the configured MAC"},
};

static bool bond_metric_value(const struct bond_view *bv, enum bond_metric m, unsigned long long *val)
{
	const struct desired_bond *b = bv->want;
	const struct obs_link *bond = bv->obs;
	const struct bond_runtime *rt = bv->rt;

	switch (m) {
	case BM_HEALTH: *val = bv->health; return true;
	case BM_UP: *val = bond && (bond->flags & IFF_UP) && (bond->flags & IFF_LOWER_UP); return true;
	case BM_MTU: *val = bond ? bond->mtu : 0; return bond != NULL;
	case BM_SLAVES_CONFIGURED: *val = b->n_slaves; return true;
	case BM_SLAVES_UP: *val = bv->slaves_up; return true;
	case BM_ACTIONS: *val = rt ? rt->actions : 0; return true;
	case BM_ERRORS: *val = rt ? rt->errors : 0; return true;
	case BM_CARRIER_CHANGES:
		*val = bond ? bond->carrier_changes : 0;
		return bond && bond->has_carrier_changes;
	case BM_AD_AGGREGATOR:
		*val = bond ? bond->info.ad_aggregator : 0;
		return bv->is_8023ad && bond->info.has_ad_info;
	case BM_MAC_KEPT:
		*val = bond && memcmp(bond->hwaddr, b->mac, sizeof(b->mac)) == 0;
		return bond && b->has_mac;
	case BM__COUNT: break;
	}
	return false;
}

enum slave_metric {
	SM_IN_PLACE, SM_MII_UP, SM_MTU, SM_ACTIVE, SM_SPEED, SM_FULL_DUPLEX, SM_LINK_FAILURES,
	SM_CARRIER_FLAPS, SM_CARRIER_CHANGES, SM_AD_AGGREGATOR, SM_AD_IN_ACTIVE, SM_AD_ACTOR_STATE,
	SM_AD_PARTNER_STATE, SM_AD_PARTNER_IN_SYNC, SM_AD_ACTOR_CHURNED, SM_AD_PARTNER_CHURNED,
	SM_AD_ACTOR_PORT_PRIO, SM_RX_BYTES, SM_TX_BYTES, SM_RX_PACKETS,
	SM_TX_PACKETS, SM_RX_ERRORS, SM_TX_ERRORS, SM_RX_DROPPED, SM_TX_DROPPED, SM_RX_CRC_ERRORS,
	SM_RX_MISSED_ERRORS, SM__COUNT
};

static const struct {
	const char *name, *type, *help;
} slave_metrics[SM__COUNT] = {
	[SM_IN_PLACE] = {"bondd_slave_in_place", "gauge", "1 when enslaved at its configured position"},
	[SM_MII_UP] = {"bondd_slave_mii_up", "gauge", "1 when the bond's MII status of the slave is up"},
	[SM_MTU] = {"bondd_slave_mtu_bytes", "gauge", "the slave's MTU"},
	[SM_ACTIVE] = {"bondd_slave_active", "gauge", "1 for the bond's active slave (active-backup, balance-tlb, balance-alb)"},
	[SM_SPEED] = {"bondd_slave_speed_bytes", "gauge", "the slave's link speed in bytes per second, as the driver reports it"},
	[SM_FULL_DUPLEX] = {"bondd_slave_full_duplex", "gauge", "1 when the slave's link is full duplex"},
	[SM_LINK_FAILURES] = {"bondd_slave_link_failures_total", "counter", "the bond's link failure count"},
	[SM_CARRIER_FLAPS] = {"bondd_slave_carrier_flaps_total", "counter", "carrier losses bondd did not cause (the link stayed admin-up)"},
	[SM_CARRIER_CHANGES] = {"bondd_slave_carrier_changes_total", "counter", "the kernel's count of the slave's carrier changes"},
	[SM_AD_AGGREGATOR] = {"bondd_slave_ad_aggregator_id", "gauge", "802.3ad: the aggregator the slave is in"},
	[SM_AD_IN_ACTIVE] = {"bondd_slave_ad_in_active_aggregator", "gauge", "802.3ad: 1 when the slave is in the bond's active aggregator"},
	[SM_AD_ACTOR_STATE] = {"bondd_slave_ad_actor_port_state", "gauge", "802.3ad: this end's LACP port state bits"},
	[SM_AD_PARTNER_STATE] = {"bondd_slave_ad_partner_port_state", "gauge", "802.3ad: the partner's LACP port state bits"},
	[SM_AD_PARTNER_IN_SYNC] = {"bondd_slave_ad_partner_in_sync", "gauge", "802.3ad: 1 when the partner's port state has the synchronization bit"},
	[SM_AD_ACTOR_CHURNED] = {"bondd_slave_ad_actor_churned", "gauge", "802.3ad: 1 when this end's churn detection machine is in the churned state (Linux 7.x reports it)"},
	[SM_AD_PARTNER_CHURNED] = {"bondd_slave_ad_partner_churned", "gauge", "802.3ad: 1 when the partner churn detection machine is in the churned state (Linux 7.x reports it)"},
	[SM_AD_ACTOR_PORT_PRIO] = {"bondd_slave_ad_actor_port_priority", "gauge", "802.3ad: the LACP port priority this port announces (Linux 6.18 and later report it)"},
	[SM_RX_BYTES] = {"bondd_slave_rx_bytes_total", "counter", "bytes received"},
	[SM_TX_BYTES] = {"bondd_slave_tx_bytes_total", "counter", "bytes transmitted"},
	[SM_RX_PACKETS] = {"bondd_slave_rx_packets_total", "counter", "packets received"},
	[SM_TX_PACKETS] = {"bondd_slave_tx_packets_total", "counter", "packets transmitted"},
	[SM_RX_ERRORS] = {"bondd_slave_rx_errors_total", "counter", "receive errors (rx_errors)"},
	[SM_TX_ERRORS] = {"bondd_slave_tx_errors_total", "counter", "transmit errors (tx_errors)"},
	[SM_RX_DROPPED] = {"bondd_slave_rx_dropped_total", "counter", "received packets dropped, missed ones included (as /proc/net/dev)"},
	[SM_TX_DROPPED] = {"bondd_slave_tx_dropped_total", "counter", "packets dropped on transmit"},
	[SM_RX_CRC_ERRORS] = {"bondd_slave_rx_crc_errors_total", "counter", "frames received with a bad CRC"},
	[SM_RX_MISSED_ERRORS] = {"bondd_slave_rx_missed_errors_total", "counter", "frames the NIC missed (no room in its receive ring)"},
};

static bool has_active_slave(const struct obs_link *bond)
{
	uint32_t m = bond ? bond->bond.val[OPT_MODE] : 0;
	return bond && (m == MODE_ACTIVE_BACKUP || m == MODE_BALANCE_TLB || m == MODE_BALANCE_ALB);
}

/* The value of metric M for a configured slave, or false when it has none
 * (a slave that does not exist has no MTU and no counters). */
static bool slave_metric(const struct bond_view *bv, size_t j, enum slave_metric m,
			 unsigned long long *val)
{
	const struct slave_view *sv = &bv->slaves[j];
	const struct obs_link *bond = bv->obs, *s = sv->obs;
	const struct link_runtime *rt = sv->rt;
	const struct link_live *live = &sv->live;
	const struct obs_slave_info *si = s ? &s->slave : NULL;
	bool info = sv->info;
	bool ad = info && bv->is_8023ad;
	bool ad_state = ad && si->has_ad_state, churn = ad && si->has_churn;

	switch (m) {
	case SM_IN_PLACE: *val = sv->enslaved && sv->position == j + 1; return true;
	case SM_MII_UP: *val = sv->up; return true;
	case SM_MTU: *val = s ? s->mtu : 0; return s != NULL;
	case SM_ACTIVE:
		*val = sv->active;
		return has_active_slave(bond);
	case SM_SPEED: *val = (unsigned long long)live->mbps * 125000; return s && live->mbps >= 0;
	case SM_FULL_DUPLEX:
		*val = strcmp(live->duplex, "full") == 0;
		return s && (strcmp(live->duplex, "full") == 0 || strcmp(live->duplex, "half") == 0);
	case SM_LINK_FAILURES: *val = info ? s->slave.link_failure_count : 0; return info;
	case SM_CARRIER_FLAPS: *val = rt ? rt->carrier_losses : 0; return true;
	case SM_CARRIER_CHANGES: *val = s ? s->carrier_changes : 0; return s && s->has_carrier_changes;
	case SM_AD_AGGREGATOR: *val = ad ? s->slave.ad_aggregator_id : 0; return ad;
	case SM_AD_IN_ACTIVE:
		*val = ad && bond->info.has_ad_info &&
		       s->slave.ad_aggregator_id == bond->info.ad_aggregator;
		return ad;
	/* Each 802.3ad value where the kernel reports it (port states since
	 * 2.6, churn states on 7.x, port priority on 6.18 and later). */
	case SM_AD_ACTOR_STATE: *val = ad ? si->ad_actor_oper_port_state : 0; return ad_state;
	case SM_AD_PARTNER_STATE: *val = ad ? si->ad_partner_oper_port_state : 0; return ad_state;
	case SM_AD_PARTNER_IN_SYNC:
		*val = ad && (si->ad_partner_oper_port_state & AD_STATE_SYNCHRONIZATION);
		return ad_state;
	case SM_AD_ACTOR_CHURNED: *val = ad && si->ad_churn_actor_state == AD_CHURN_CHURNED; return churn;
	case SM_AD_PARTNER_CHURNED:
		*val = ad && si->ad_churn_partner_state == AD_CHURN_CHURNED;
		return churn;
	case SM_AD_ACTOR_PORT_PRIO: *val = ad ? si->actor_port_prio : 0; return ad && si->has_actor_port_prio;
	case SM_RX_BYTES: *val = live->stats.rx_bytes; return s != NULL;
	case SM_TX_BYTES: *val = live->stats.tx_bytes; return s != NULL;
	case SM_RX_PACKETS: *val = live->stats.rx_packets; return s != NULL;
	case SM_TX_PACKETS: *val = live->stats.tx_packets; return s != NULL;
	case SM_RX_ERRORS: *val = live->stats.rx_errors; return s != NULL;
	case SM_TX_ERRORS: *val = live->stats.tx_errors; return s != NULL;
	case SM_RX_DROPPED: *val = live->stats.rx_dropped; return s != NULL;
	case SM_TX_DROPPED: *val = live->stats.tx_dropped; return s != NULL;
	case SM_RX_CRC_ERRORS: *val = live->stats.rx_crc_errors; return s && live->stats.has_crc_missed;
	case SM_RX_MISSED_ERRORS:
		*val = live->stats.rx_missed_errors;
		return s && live->stats.has_crc_missed;
	case SM__COUNT: break;
	}
	return false;
}

/* bondd_bond_findings of one kind about one bond: how many, and the worst
 * severity among them; nothing when there are none. */
static void findings_sample(struct strbuf *out, const struct bond_view *bv, enum finding_kind k)
{
	unsigned long long count = 0;
	enum finding_severity sev = FSEV_INFO;

	for (size_t j = 0; j < bv->n_findings; j++) {
		const struct finding *f = bv->findings[j];
		if (f->kind != k)
			continue;
		count++;
		if (f->severity > sev)
			sev = f->severity;
	}
	if (!count)
		return;
	sb_puts(out, "bondd_bond_findings{master=\"");
	prom_label(out, bv->want->name);
	sb_puts(out, "\",device=\"");
	prom_label(out, bv->want->name);
	sb_printf(out, "\",kind=\"%s\",severity=\"%s\"} %llu\n", finding_kind_name(k),
		  finding_severity_name(sev), count);
}

/* Each metric's HELP, TYPE and every sample of it together, as the format
 * requires.  bondd's own metrics first: the build, the last reload. */
void render_prometheus(struct strbuf *out, const struct bond_views *bv)
{
	const struct status_view *v = bv->from;
	size_t n = bv->n;

	prom_head(out, "bondd_build_info", "gauge", "always 1; the version in its label");
	sb_puts(out, "bondd_build_info{version=\"");
	prom_label(out, BONDD_VERSION);
	sb_puts(out, "\"} 1\n");
	prom_head(out, "bondd_config_last_reload_successful", "gauge",
		    "1 when the last reload (or the start) took the config, 0 when it was refused");
	sb_printf(out, "bondd_config_last_reload_successful %d\n", v->config_failed ? 0 : 1);
	if (v->config_success_ms > 0) {
		prom_head(out, "bondd_config_last_reload_success_timestamp_seconds", "gauge",
			    "when the config was last taken (start or reload), in Unix time");
		sb_printf(out, "bondd_config_last_reload_success_timestamp_seconds %lld.%03lld\n",
			  (long long)(v->config_success_ms / 1000),
			  (long long)(v->config_success_ms % 1000));
	}

	for (size_t m = 0; m < BM__COUNT; m++) {
		bool head = false;
		for (size_t i = 0; i < n; i++) {
			unsigned long long val;
			if (!bond_metric_value(&bv->v[i], (enum bond_metric)m, &val))
				continue;
			if (!head)
				prom_head(out, bond_metrics[m].name, bond_metrics[m].type,
					    bond_metrics[m].help);
			head = true;
			sample(out, bond_metrics[m].name, bv->v[i].want->name, NULL, val);
		}
	}

	/* The mode as a label (an info metric), so that a dashboard or an
	 * alert can group or select bonds by it: the kernel's mode, else the
	 * configured one (bond_view.h). */
	if (n)
		prom_head(out, "bondd_bond_mode_info", "gauge",
			    "always 1; the bond's mode (the kernel's, else the configured) in its label");
	for (size_t i = 0; i < n; i++)
		prom_sample(out, "bondd_bond_mode_info", bv->v[i].want->name, bv->v[i].want->name,
			    "mode", bv->v[i].mode, 1);

	prom_head(out, "bondd_bond_findings", "gauge",
		    "what the link check and the host checks found, by kind (bondd-status(1))");
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < FK__COUNT; k++)
			findings_sample(out, &bv->v[i], (enum finding_kind)k);

	/* The link check's and LLDP's samples, from the records the views
	 * hold: each bond's last result, each slave's LLDP record. */
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += bv->v[i].want->n_slaves;
	const struct lc_result **results = calloc(n ? n : 1, sizeof(*results));
	const struct lldp_port **ports = calloc(total ? total : 1, sizeof(*ports));
	if (!results || !ports) {
		free(results);
		free(ports);
		out->oom = true;
		return;
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		results[i] = bv->v[i].linkcheck;
		for (size_t j = 0; j < bv->v[i].want->n_slaves; j++)
			ports[k++] = bv->v[i].slaves[j].lldp;
	}
	linkcheck_prometheus(out, results, n);
	lldp_prometheus(out, ports, total);
	free(results);
	free(ports);

	for (size_t m = 0; m < SM__COUNT; m++) {
		bool head = false;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < bv->v[i].want->n_slaves; j++) {
				unsigned long long val;
				if (!slave_metric(&bv->v[i], j, (enum slave_metric)m, &val))
					continue;
				if (!head)
					prom_head(out, slave_metrics[m].name, slave_metrics[m].type,
						    slave_metrics[m].help);
				head = true;
				sample(out, slave_metrics[m].name, bv->v[i].want->name,
				       bv->v[i].slaves[j].name, val);
			}
	}
}
