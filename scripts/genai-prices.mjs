// Regenerates topology/src/main/resources/prices/genai-prices.json from the @pydantic/genai-prices npm package
// (MIT; its data is the pydantic/genai-prices repository's). Not part of the build: run it by hand when the prices
// are to be refreshed, then review the diff and the tests (docs/analytics.md, "Prices").
//   cd /tmp && npm pack @pydantic/genai-prices@<version> && tar xzf pydantic-genai-prices-<version>.tgz
//   node scripts/genai-prices.mjs /tmp/package > topology/src/main/resources/prices/genai-prices.json
// The package does not export its table: it is the first array literal of dist/index.js, which is read here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const bundle = readFileSync(join(dir, 'dist', 'index.js'), 'utf8');
const start = bundle.indexOf('[', bundle.indexOf('const E = ['));
const end = bundle.indexOf('\n], J = {');
if (start < 0 || end < 0) throw new Error('the table is not where this script expects it in dist/index.js');
const providers = new Function('return ' + bundle.slice(start, end + 2))();

// The prices the pipeline uses: tokens by direction and cache (what the Usage contract carries).
const KEYS = ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok'];
const trimPrices = (prices) => Object.fromEntries(KEYS.filter((k) => prices[k] !== undefined).map((k) => [k, prices[k]]));
const trimModel = (m) => ({
  id: m.id,
  match: m.match,
  prices: Array.isArray(m.prices)
    ? m.prices.map((p) => (p.constraint ? { constraint: p.constraint, prices: trimPrices(p.prices) } : { prices: trimPrices(p.prices) }))
    : trimPrices(m.prices),
});
const table = {
  source: 'npm @pydantic/genai-prices ' + pkg.version + ' (https://github.com/pydantic/genai-prices, data from prices/data.json)',
  licence: pkg.license ?? 'MIT',
  version: pkg.version,
  retrieved: new Date().toISOString().slice(0, 10),
  units: 'USD per million tokens',
  providers: providers.map((p) => ({
    id: p.id,
    ...(p.provider_match ? { provider_match: p.provider_match } : {}),
    ...(p.model_match ? { model_match: p.model_match } : {}),
    ...(p.fallback_model_providers ? { fallback_model_providers: p.fallback_model_providers } : {}),
    models: p.models.map(trimModel),
  })),
};
process.stdout.write(JSON.stringify(table, null, 1) + '\n');
