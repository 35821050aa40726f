// SPDX-License-Identifier: MIT
// What a site changes: override in its own jsonnet, e.g.
//   (import 'bondd-mixin/mixin.libsonnet') + { _config+:: { bonddSelector: 'job="node"' } }
{
  _config+:: {
    // Selects bondd's series (scraped with node_exporter's textfile
    // collector, so usually under node_exporter's job); '' takes them all.
    bonddSelector: '',
    // Where each alert's runbook is: %s is the alert's name in lower case,
    // an anchor of runbook.md (installed as /usr/share/bondd/mixin/runbook.md).
    // Point it at a copy on the site's own wiki or web server.
    runbookURLPattern: 'file:///usr/share/bondd/mixin/runbook.md#%s',
    // How long a bond may stay degraded or down before it pages.
    degradedFor: '5m',
    downFor: '1m',
    // The age of the textfile (seconds) after which bondd counts as gone.
    textfileMaxAge: 300,
    // The Grafana dashboard's uid and tags.
    dashboardUID: 'bondd-bonds',
    dashboardTags: ['bondd', 'bonding'],
  },
  // metric{selector}, or the bare metric when the selector is empty.
  sel(metric, extra=''):: (
    local s = std.join(',', std.filter(function(x) x != '', [$._config.bonddSelector, extra]));
    if s == '' then metric else '%s{%s}' % [metric, s]
  ),
  runbook(alert):: $._config.runbookURLPattern % std.asciiLower(alert),
}
