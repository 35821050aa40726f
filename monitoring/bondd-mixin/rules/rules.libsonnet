// SPDX-License-Identifier: MIT
// Recording rules the dashboard reads (level:metric:operation names).
{
  prometheusRules+:: {
    groups+: [{
      name: 'bondd.rules',
      rules: [
        {
          // Configured slaves that are not enslaved with their link up.
          record: 'instance_master:bondd_slaves_missing:sum',
          expr: 'sum by (instance, master) (%s - %s)' % [$.sel('bondd_bond_slaves_configured'), $.sel('bondd_bond_slaves_up')],
        },
        {
          // Receive and transmit errors of a bond's slaves, per second.
          record: 'instance_master:bondd_slave_errors:rate5m',
          expr: 'sum by (instance, master) (rate(%s[5m]) + rate(%s[5m]))' % [$.sel('bondd_slave_rx_errors_total'), $.sel('bondd_slave_tx_errors_total')],
        },
        {
          // Bytes a bond's slaves carry, per second, both ways.
          record: 'instance_master:bondd_slave_bytes:rate5m',
          expr: 'sum by (instance, master) (rate(%s[5m]) + rate(%s[5m]))' % [$.sel('bondd_slave_rx_bytes_total'), $.sel('bondd_slave_tx_bytes_total')],
        },
        {
          // Bonds by mode, across the fleet.
          record: 'mode:bondd_bonds:count',
          expr: 'count by (mode) (%s)' % $.sel('bondd_bond_mode_info'),
        },
        {
          // Bonds not healthy (degraded or down), by mode.
          record: 'mode:bondd_bonds_unhealthy:count',
          expr: 'count by (mode) ((%s > 0) * on (instance, master) group_left (mode) %s)' % [$.sel('bondd_bond_health'), $.sel('bondd_bond_mode_info')],
        },
      ],
    }],
  },
}
