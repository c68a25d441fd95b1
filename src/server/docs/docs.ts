// GET /docs: a readable page (Portuguese) generated from the OpenAPI document /openapi.json serves.
// The lead is the document's description; routes, curl lines, parameter and field tables and
// examples are read from its operations; the text around them is the page text each openapi-*.ts
// writes beside its operations (docs-page.ts). Nothing here knows an endpoint. It uses the web
// app's layout and stylesheet (escaping by construction, a phone layout), with a table of contents:
// on a phone it comes first, on a wide screen it stays beside the text.
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { layout } from '../web/layout.ts';
import { fieldTable, parameterTable, type JsonSchemaLike, type ParameterLike } from './docs-parts.ts';
import type { OperationView, PageContext, PageSection } from './docs-page.ts';
import { buildOpenApi, DOCS_PAGE } from './openapi.ts';

/** The parts of an operation the page reads. */
interface Operation {
  operationId: string;
  parameters?: ParameterLike[];
  'x-codeSamples'?: { source: string }[];
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchemaLike; example?: unknown }> }>;
}

interface OpenApiDocument {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
}

/** Follows `$ref`s (local JSON pointers such as #/components/schemas/X) to the schema itself. */
function resolver(doc: OpenApiDocument) {
  const resolve = (s: JsonSchemaLike): JsonSchemaLike => {
    if (s.$ref === undefined) return s;
    const target = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
    if (target === undefined) throw new Error(`/docs: ${s.$ref} is not in the document`);
    return resolve(target as JsonSchemaLike);
  };
  return resolve;
}

function operationView(doc: OpenApiDocument, method: string, path: string, op: Operation): OperationView {
  const resolve = resolver(doc);
  const METHOD = method.toUpperCase();
  const fail = (what: string): never => {
    throw new Error(`/docs: ${op.operationId} has no ${what}`);
  };
  const json200 = () => op.responses?.['200']?.content?.['application/json'] ?? fail('JSON 200 answer');
  const sample = (i: number) => op['x-codeSamples']?.[i]?.source ?? fail(`code sample ${i}`);
  const parameter = (name: string) => op.parameters?.find((p) => p.name === name) ?? fail(`parameter ${name}`);
  const code = (text: string) => html`<pre class="code">${breakAfterSlashes(text)}</pre>`;
  return {
    method: METHOD,
    path,
    route: (query = '') => breakAfterSlashes(`${METHOD} ${path}${query}`),
    examplePath: () =>
      breakAfterSlashes(
        path.replace(/\{(\w+)\}/g, (_, name: string) =>
          String(parameter(name).schema.examples?.[0] ?? fail(`example of ${name}`)),
        ),
      ),
    curl: (i = 0) => code(sample(i)),
    nextPageCurl: () => {
      const source = sample(0);
      const cursor = (json200().example as { next_cursor?: unknown }).next_cursor;
      if (!source.endsWith('"') || typeof cursor !== 'string') return fail('next page to show');
      return code(`${source.slice(0, -1)}&cursor=${cursor}"`);
    },
    parameters: () => parameterTable(op.parameters ?? []),
    fields: (...names) =>
      fieldTable(
        names.reduce(
          (schema, name) => {
            const prop = schema.properties?.[name];
            if (!prop) return fail(`field ${name} in its 200 answer`);
            const s = resolve(prop);
            return s.type === 'array' ? resolve(s.items ?? {}) : s;
          },
          resolve(json200().schema ?? {}),
        ),
      ),
    example: <T>(cut?: (value: T) => unknown) => {
      const value = json200().example;
      return html`<pre class="code json" tabindex="0">${JSON.stringify(cut ? cut(value as T) : value, null, 2)}</pre>`;
    },
  };
}

/** Joins blocks of markup, one per line (`\n\n` leaves a blank line between them). */
const joined = (parts: readonly Html[], separator = '\n'): Html =>
  parts.reduce<Html>((all, part, i) => (i ? html`${all}${separator}${part}` : part), html``);

function toc(sections: readonly PageSection[]): Html {
  const link = (id: string, title: string) => html`<a href="#${id}">${title}</a>`;
  return html`<nav class="card toc" aria-label="Sumário">
  <h2>Sumário</h2>
  <ol>${sections.map((s) => html`<li>${link(s.id, s.title)}${s.subsections?.length ? html`<ol>${s.subsections.map((c) => html`<li>${link(c.id, c.title)}</li>`)}</ol>` : ''}</li>`)}</ol>
</nav>`;
}

export function buildDocsHtml(baseUrl: string): string {
  const doc = buildOpenApi(baseUrl) as unknown as OpenApiDocument;
  const views = new Map<string, OperationView>();
  for (const [path, operations] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(operations))
      views.set(op.operationId, operationView(doc, method, path, op));
  const shown = new Set<string>();
  const context = (section: PageSection): PageContext => ({
    op(operationId) {
      const view = views.get(operationId);
      if (!view) throw new Error(`/docs: section ${section.id} names ${operationId}, which the document lacks`);
      shown.add(operationId);
      return view;
    },
    h3(id) {
      const sub = section.subsections?.find((s) => s.id === id);
      if (!sub) throw new Error(`/docs: section ${section.id} has no subsection ${id}`);
      return html`<h3 id="${id}">${sub.code ? html`<code>${sub.title}</code>` : sub.title}</h3>`;
    },
  });
  const cards = DOCS_PAGE.map(
    (card) =>
      html`<section class="card">
${joined(card.map((s) => html`<h2 id="${s.id}">${s.title}</h2>\n${s.text(context(s))}`))}
</section>`,
  );
  // Every operation of /openapi.json is presented: a new one without its page text fails here.
  const missing = [...views.keys()].filter((id) => !shown.has(id));
  if (missing.length) throw new Error(`/docs: no section presents ${missing.join(', ')}`);
  const body = html`<h1>API de CNPJ: documentação</h1>
<p class="lead">${doc.info.description}</p>
<div class="docs">
${toc(DOCS_PAGE.flat())}
<div class="docs-body">
<p>Especificação OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>.</p>

${joined(cards, '\n\n')}
</div>
</div>`;
  return layout({ title: 'Documentação da API', body, wide: true });
}
