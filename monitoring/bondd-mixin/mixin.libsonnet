// SPDX-License-Identifier: MIT
// bondd's monitoring mixin: alerts, recording rules, a Grafana dashboard.
// generated/ holds the output (make -C monitoring/bondd-mixin, with
// jsonnet), checked in so that no jsonnet is needed to use it.
(import 'config.libsonnet') +
(import 'alerts/alerts.libsonnet') +
(import 'rules/rules.libsonnet') +
(import 'dashboards/dashboards.libsonnet')
