// SPDX-License-Identifier: MIT
// One Grafana dashboard, plain JSON (no grafonnet needed): the fleet's
// bonds, then one host's bonds and slaves.  Every query reads only
// bondd's own metrics (checked against bondd's live output in CI).
local ds = { type: 'prometheus', uid: '${datasource}' };
local panel(id, title, type, x, y, w, h, targets, extra={}) = {
  id: id,
  title: title,
  type: type,
  datasource: ds,
  gridPos: { x: x, y: y, w: w, h: h },
  targets: [
    { datasource: ds, refId: std.char(65 + i), expr: targets[i][0], legendFormat: targets[i][1] }
    for i in std.range(0, std.length(targets) - 1)
  ],
} + extra;
local healthMap = {
  fieldConfig: {
    defaults: {
      mappings: [{ type: 'value', options: {
        '0': { text: 'healthy', color: 'green' },
        '1': { text: 'degraded', color: 'orange' },
        '2': { text: 'down', color: 'red' },
      } }],
      thresholds: { mode: 'absolute', steps: [
        { color: 'green', value: null },
        { color: 'orange', value: 1 },
        { color: 'red', value: 2 },
      ] },
      color: { mode: 'thresholds' },
    },
    overrides: [],
  },
};
{
  grafanaDashboards+:: {
    'bondd.json': {
      local host = 'instance=~"$instance"',
      local bond = 'instance=~"$instance",master=~"$bond"',
      uid: $._config.dashboardUID,
      title: 'bondd / Bonds',
      tags: $._config.dashboardTags,
      timezone: 'utc',
      schemaVersion: 39,
      editable: true,
      refresh: '1m',
      time: { from: 'now-6h', to: 'now' },
      templating: { list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source' },
        {
          name: 'instance', type: 'query', datasource: ds, label: 'Host',
          query: { query: 'label_values(%s, instance)' % $.sel('bondd_bond_health'), refId: 'instance' },
          refresh: 2, includeAll: true, multi: true, current: { text: 'All', value: '$__all' },
        },
        {
          name: 'bond', type: 'query', datasource: ds, label: 'Bond',
          query: { query: 'label_values(%s, master)' % $.sel('bondd_bond_health', 'instance=~"$instance"'), refId: 'bond' },
          refresh: 2, includeAll: true, multi: true, current: { text: 'All', value: '$__all' },
        },
      ] },
      panels: [
        panel(1, 'Bonds not healthy', 'stat', 0, 0, 6, 4,
              [['count(%s > 0) or vector(0)' % $.sel('bondd_bond_health', host), '']],
              { fieldConfig: { defaults: { thresholds: { mode: 'absolute', steps: [
                { color: 'green', value: null }, { color: 'red', value: 1 },
              ] } }, overrides: [] } }),
        panel(2, 'Bonds by mode', 'piechart', 6, 0, 6, 4,
              [['count by (mode) (%s)' % $.sel('bondd_bond_mode_info', host), '{{mode}}']]),
        panel(3, 'Last reload taken', 'stat', 12, 0, 6, 4,
              [['min(%s)' % $.sel('bondd_config_last_reload_successful', host), '']],
              { fieldConfig: { defaults: { mappings: [{ type: 'value', options: {
                '0': { text: 'refused', color: 'red' }, '1': { text: 'yes', color: 'green' },
              } }] }, overrides: [] } }),
        panel(4, 'Repairs (kernel requests) per hour', 'stat', 18, 0, 6, 4,
              [['sum(increase(%s[1h]))' % $.sel('bondd_bond_actions_total', host), '']]),
        panel(5, 'Health', 'state-timeline', 0, 4, 24, 7,
              [['%s' % $.sel('bondd_bond_health', bond), '{{instance}} {{master}}']], healthMap),
        panel(6, 'Slaves up / configured', 'timeseries', 0, 11, 12, 8,
              [['%s' % $.sel('bondd_bond_slaves_up', bond), '{{instance}} {{master}} up'],
               ['%s' % $.sel('bondd_bond_slaves_configured', bond), '{{instance}} {{master}} configured']]),
        panel(7, 'Slaves not in place (order) or MII down', 'timeseries', 12, 11, 12, 8,
              [['%s == 0' % $.sel('bondd_slave_in_place', bond), '{{instance}} {{device}} not in place'],
               ['%s == 0' % $.sel('bondd_slave_mii_up', bond), '{{instance}} {{device}} MII down']]),
        panel(8, 'Slave throughput (bytes/s)', 'timeseries', 0, 19, 12, 8,
              [['rate(%s[$__rate_interval])' % $.sel('bondd_slave_rx_bytes_total', bond), '{{instance}} {{device}} rx'],
               ['-rate(%s[$__rate_interval])' % $.sel('bondd_slave_tx_bytes_total', bond), '{{instance}} {{device}} tx']],
              { fieldConfig: { defaults: { unit: 'Bps' }, overrides: [] } }),
        panel(9, 'Slave errors and drops (per s)', 'timeseries', 12, 19, 12, 8,
              [['rate(%s[$__rate_interval]) + rate(%s[$__rate_interval])' % [$.sel('bondd_slave_rx_errors_total', bond), $.sel('bondd_slave_tx_errors_total', bond)], '{{instance}} {{device}} errors'],
               ['rate(%s[$__rate_interval]) + rate(%s[$__rate_interval])' % [$.sel('bondd_slave_rx_dropped_total', bond), $.sel('bondd_slave_tx_dropped_total', bond)], '{{instance}} {{device}} drops']]),
        panel(10, 'Carrier changes and link failures', 'timeseries', 0, 27, 12, 8,
              [['increase(%s[$__rate_interval])' % $.sel('bondd_slave_carrier_changes_total', bond), '{{instance}} {{device}} carrier changes'],
               ['increase(%s[$__rate_interval])' % $.sel('bondd_slave_link_failures_total', bond), '{{instance}} {{device}} link failures']]),
        panel(11, 'Findings (link check, host checks, LLDP)', 'table', 12, 27, 12, 8,
              [['%s' % $.sel('bondd_bond_findings', bond), '']],
              { targets: [{ datasource: ds, refId: 'A', expr: $.sel('bondd_bond_findings', bond), format: 'table', instant: true }] }),
      ],
    },
  },
}
