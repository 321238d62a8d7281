// Prints, as JSON, every PromQL query of a Grafana dashboard with the metric and label names it selects, parsed by
// Prometheus' own PromQL grammar (the one Prometheus' web UI uses). Usage: node selectors.mjs dashboard.json
// (MetricsEndpointTest also hands it the alert rules' expressions, as panels of one target each.)
import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';

const dashboard = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function* panels(list) {
  for (const panel of list ?? []) {
    yield panel;
    yield* panels(panel.panels);
  }
}

// Grafana's interval variables stand for a duration; its other variables ($agent, $model, ...) appear only inside label
// matchers' strings, which parse as they are.
const grafanaVariables = (expr) => expr.replace(/\$__(rate_interval|interval|range)/g, '5m');

const queries = [];
for (const panel of panels(dashboard.panels)) {
  for (const target of panel.targets ?? []) {
    if (!target.expr) continue;
    const expr = grafanaVariables(target.expr);
    const tree = parser.parse(expr);
    const errors = [];
    const selectors = [];
    const grouping = [];
    tree.iterate({
      enter(ref) {
        if (ref.type.isError) errors.push(ref.from);
        if (ref.name === 'VectorSelector') {
          const node = ref.node;
          const identifier = node.getChild('Identifier');
          const labels = [];
          const matchers = node.getChild('LabelMatchers');
          if (matchers) {
            for (let m = matchers.firstChild; m; m = m.nextSibling) {
              const name = m.getChild('LabelName');
              if (name) labels.push(expr.slice(name.from, name.to));
            }
          }
          selectors.push({ metric: identifier ? expr.slice(identifier.from, identifier.to) : null, labels });
        }
        if (ref.name === 'GroupingLabels') {
          for (let l = ref.node.firstChild; l; l = l.nextSibling) {
            if (l.name === 'LabelName') grouping.push(expr.slice(l.from, l.to));
          }
        }
      },
    });
    queries.push({ panel: panel.title, expr: target.expr, errors, selectors, grouping });
  }
}
process.stdout.write(JSON.stringify(queries, null, 1) + '\n');
