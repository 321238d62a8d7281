// Validates Kubernetes objects against the API's own OpenAPI schemas (kubernetes-models, generated from Kubernetes'
// swagger) and the Prometheus Operator's CRD schemas: each object through .validate() of the model class of its
// apiVersion and kind. Prints, as JSON, one entry per object: its file, kind, name and the schema's errors (empty when
// valid). Usage: node validate.mjs file.yaml... (every document of each file; an apiVersion/kind without a model is an
// error, never a pass).
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

// apiVersion "apps/v1" is the module kubernetes-models/apps/v1, the core group's "v1" is kubernetes-models/v1
const PACKAGES = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator' };

async function modelOf(apiVersion, kind) {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const pkg = PACKAGES[group] ?? 'kubernetes-models';
  try {
    const module = await import(`${pkg}/${apiVersion}/${kind}`);
    return module[kind];
  } catch (e) {
    return undefined;
  }
}

const results = [];
for (const file of process.argv.slice(2)) {
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (document.errors.length > 0) {
      results.push({ file, kind: null, name: null, errors: document.errors.map((e) => `YAML: ${e.message}`) });
      continue;
    }
    const object = document.toJS();
    if (object === null || object === undefined) continue;
    const { apiVersion, kind } = object;
    const name = object.metadata?.name ?? null;
    const Model = apiVersion && kind ? await modelOf(apiVersion, kind) : undefined;
    if (!Model) {
      results.push({ file, kind, name, errors: [`no schema for apiVersion ${apiVersion} kind ${kind}`] });
      continue;
    }
    const errors = [];
    try {
      new Model(object).validate();
    } catch (e) {
      for (const error of e.errors ?? [{ message: e.message }]) {
        errors.push(`${error.instancePath ?? ''} ${error.message}${error.params ? ' ' + JSON.stringify(error.params) : ''}`.trim());
      }
    }
    results.push({ file, kind, name, errors });
  }
}
console.log(JSON.stringify(results));
