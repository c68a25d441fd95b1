// /openapi.json and /docs cover the search, the count and the partner search: parameters from the
// routes' own schemas, curl examples, examples that fit their schemas, the routes' errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { decodeCursor } from '../../../src/domain/cursor.ts';
import {
  CompanySearchPageSchema,
  CompanySearchQuerySchema,
  CountResponseSchema,
  PartnersPageSchema,
  SuggestResponseSchema,
} from '../../../src/domain/search/query-schema.ts';
import { buildDocsHtml } from '../../../src/server/docs/docs.ts';
import {
  countExample,
  partnersExample,
  searchExample,
  suggestExample,
} from '../../../src/server/docs/examples-search.ts';
import { buildOpenApi } from '../../../src/server/docs/openapi.ts';
import { scopeOf } from '../../../src/domain/search/paging.ts';

FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));
const BASE = 'https://cnpj.example';

test("examples fit their schemas; the search example's cursor is the one the route would take", () => {
  assert.ok(Value.Check(CompanySearchPageSchema, searchExample()));
  assert.ok(Value.Check(CountResponseSchema, countExample()));
  assert.ok(Value.Check(PartnersPageSchema, partnersExample()));
  const scope = scopeOf({ q: 'serpro', uf: ['DF'], situacao_cadastral: ['ativa'] });
  // With q, the relevance order: the tier (1, every word present) and the last CNPJ.
  assert.equal(decodeCursor(scope, searchExample().next_cursor!), `1:${searchExample().data[0]!.cnpj}`);
  assert.ok(Value.Check(SuggestResponseSchema, suggestExample()));
});

test('/openapi.json: the three operations, their parameters from the schemas, curl samples, their errors', () => {
  const o = JSON.parse(JSON.stringify(buildOpenApi(BASE)));
  const search = o.paths['/api/v1/brazilian_companies'].get;
  assert.deepEqual(
    search.parameters.map((p: { name: string }) => p.name),
    Object.keys(CompanySearchQuerySchema.properties),
  );
  assert.ok(search.parameters.every((p: { in: string; required: boolean }) => p.in === 'query' && !p.required));
  assert.deepEqual(search.parameters.find((p: { name: string }) => p.name === 'uf').schema.type, 'array');
  assert.match(
    search['x-codeSamples'][0].source,
    /^curl -H "Authorization: Bearer \$CNPJ_API_TOKEN" "https:\/\/cnpj\.example\/api\/v1\/brazilian_companies\?q=serpro&uf=DF/,
  );
  assert.match(search['x-codeSamples'][1].source, /format=csv"$/);
  assert.deepEqual(Object.keys(search.responses['200'].content), ['application/json', 'text/csv']);
  assert.ok(search.responses['200'].headers['X-Next-Cursor']);
  assert.deepEqual(Object.keys(search.responses['400'].content['application/json'].examples), [
    'invalid_parameter',
    'missing_filter',
    'bad_request',
  ]);
  assert.deepEqual(Object.keys(search.responses['503'].content['application/json'].examples), [
    'registry_unavailable',
    'search_unavailable',
    'server_busy',
  ]);
  const count = o.paths['/api/v1/brazilian_companies/count'].get;
  assert.ok(!count.parameters.some((p: { name: string }) => ['limit', 'cursor', 'format'].includes(p.name)));
  assert.equal(count.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/CountResponse');
  const partners = o.paths['/api/v1/partners'].get;
  assert.deepEqual(
    partners.parameters.map((p: { name: string }) => p.name),
    ['nome', 'cnpj_cpf', 'order', 'limit', 'cursor'],
  );
  assert.match(partners['x-codeSamples'][0].source, /\/api\/v1\/partners\?nome=/);
  for (const name of ['CompanySearchPage', 'CountResponse', 'PartnersPage'])
    assert.ok(o.components.schemas[name], name);
  assert.ok(o['x-errors'].some((e: { error: string }) => e.error === 'missing_filter'));
});

test('/docs: sections in the contents, curl examples, every parameter, the CSV and its cursor header', () => {
  const d = buildDocsHtml(BASE).replace(/<wbr>/g, '');
  for (const s of [
    'href="#buscar"',
    'id="buscar"',
    'id="contar"',
    'id="socios"',
    '/api/v1/brazilian_companies?q=serpro',
    '/brazilian_companies/count?cnae=6204',
    '/api/v1/partners?nome=',
    'format=csv',
    'X-Next-Cursor',
    'missing_filter',
    'search_unavailable',
  ]) {
    assert.ok(d.includes(s), s);
  }
  for (const name of Object.keys(CompanySearchQuerySchema.properties))
    assert.ok(d.includes(`<code>${name}</code>`), name);
});
