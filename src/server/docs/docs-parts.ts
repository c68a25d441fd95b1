// Tables of the /docs page, read from the OpenAPI document: a response's fields (its JSON Schema)
// and an operation's query parameters. One table shape serves them all: `stack` tables, where on a
// narrow screen each row becomes a card, each cell led by its column's name (data-label).
import { html, type Html } from '../web/html.ts';

export interface JsonSchemaLike {
  type?: string;
  format?: string;
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
  const?: unknown;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  $ref?: string;
}

/** An OpenAPI parameter, as openapi-parts.ts writes them. */
export interface ParameterLike {
  name: string;
  in: string;
  description?: string;
  schema: JsonSchemaLike;
}

export function typeName(s: JsonSchemaLike): string {
  if (s.anyOf) return s.anyOf.map(typeName).join(' ou ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `lista de ${typeName(s.items ?? {})}`;
  if (s.type === 'string' && s.format === 'date') return 'data (AAAA-MM-DD)';
  const names: Record<string, string> = {
    string: 'texto',
    integer: 'inteiro',
    boolean: 'booleano',
    null: 'null',
    number: 'número',
    object: 'objeto',
  };
  return names[s.type ?? ''] ?? s.type ?? '';
}

/** A table whose cells are labelled by their column's heading. */
export function docsTable(headings: readonly string[], rows: readonly (readonly (Html | string | number)[])[]): Html {
  const body = rows.map(
    (cells) => html`<tr>${cells.map((c, i) => html`<td data-label="${headings[i]}">${c}</td>`)}</tr>`,
  );
  return html`<div class="table-wrap"><table class="stack docs-table"><thead><tr>${headings.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${body}</tbody></table></div>`;
}

export function fieldTable(schema: JsonSchemaLike): Html {
  const required = new Set(schema.required ?? []);
  return docsTable(
    ['Campo', 'Tipo', 'Descrição'],
    Object.entries(schema.properties ?? {}).map(([name, p]) => [
      html`<code>${name}</code>${required.has(name) ? '' : html` <em>(opcional)</em>`}`,
      typeName(p),
      p.description ?? '',
    ]),
  );
}

export function parameterTable(parameters: readonly ParameterLike[]): Html {
  return docsTable(
    ['Parâmetro', 'Tipo', 'Descrição'],
    parameters
      .filter((p) => p.in === 'query')
      .map((p) => [html`<code>${p.name}</code>`, typeName(p.schema), p.description ?? '']),
  );
}
