// SPDX-License-Identifier: MIT
// bondd's alerts; each has a runbook_url (runbook.md, one section each).
// BondDegraded and BondDown cover the same fault as node_exporter's
// NodeBondingDegraded: alertmanager-inhibit.yaml keeps one page per fault.
{
  prometheusAlerts+:: {
    groups+: [{
      name: 'bondd',
      rules: [
        {
          alert: 'BondDegraded',
          expr: '%s == 1' % $.sel('bondd_bond_health'),
          'for': $._config.degradedFor,
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Bond {{ $labels.master }} on {{ $labels.instance }} is degraded',
            description: 'bondd-status {{ $labels.master }} names the reason (a slave missing, down, out of order, or outside the active LACP aggregator).',
            runbook_url: $.runbook('BondDegraded'),
          },
        },
        {
          alert: 'BondDown',
          expr: '%s == 2' % $.sel('bondd_bond_health'),
          'for': $._config.downFor,
          labels: { severity: 'critical' },
          annotations: {
            summary: 'Bond {{ $labels.master }} on {{ $labels.instance }} is down or missing',
            description: 'The bond is missing, set down, or has no carrier: the host is cut off on this network.',
            runbook_url: $.runbook('BondDown'),
          },
        },
        {
          alert: 'BondSlaveFlapping',
          expr: 'increase(%s[10m]) > 6' % $.sel('bondd_slave_carrier_changes_total'),
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Slave {{ $labels.device }} of {{ $labels.master }} on {{ $labels.instance }} is flapping',
            description: '{{ $value }} carrier changes in 10 minutes.',
            runbook_url: $.runbook('BondSlaveFlapping'),
          },
        },
        {
          alert: 'BondSlaveLinkFailures',
          expr: 'increase(%s[1h]) > 3' % $.sel('bondd_slave_link_failures_total'),
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Slave {{ $labels.device }} of {{ $labels.master }} on {{ $labels.instance }} keeps failing',
            description: "{{ $value }} link failures in an hour (the bonding driver's count).",
            runbook_url: $.runbook('BondSlaveLinkFailures'),
          },
        },
        {
          alert: 'BondSlaveErrors',
          expr: 'increase(%s[10m]) + increase(%s[10m]) > 10' % [$.sel('bondd_slave_rx_errors_total'), $.sel('bondd_slave_tx_errors_total')],
          labels: { severity: 'warning' },
          annotations: {
            summary: 'Slave {{ $labels.device }} of {{ $labels.master }} on {{ $labels.instance }} has errors',
            description: '{{ $value }} errors in 10 minutes: check its cable, transceiver and switch port.',
            runbook_url: $.runbook('BondSlaveErrors'),
          },
        },
        {
          alert: 'BonddNotReachable',
          expr: '%s == 0 or (time() - %s) > %d' % [$.sel('bondd_up'), $.sel('node_textfile_mtime_seconds', 'file=~".*bondd[.]prom"'), $._config.textfileMaxAge],
          'for': '2m',
          labels: { severity: 'critical' },
          annotations: {
            summary: 'bondd on {{ $labels.instance }} does not answer: nothing repairs its bonds',
            description: 'bondd-textfile wrote bondd_up 0, or its file is older than %d s.' % $._config.textfileMaxAge,
            runbook_url: $.runbook('BonddNotReachable'),
          },
        },
        {
          alert: 'BonddReloadFailed',
          expr: '%s == 0' % $.sel('bondd_config_last_reload_successful'),
          'for': '1m',
          labels: { severity: 'warning' },
          annotations: {
            summary: 'bondd on {{ $labels.instance }} refused its new configuration and runs the previous one',
            description: 'journalctl -u bondd names FILE:LINE of each error.',
            runbook_url: $.runbook('BonddReloadFailed'),
          },
        },
      ],
    }],
  },
}
