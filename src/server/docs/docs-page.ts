// What /docs needs beyond the OpenAPI document: the page's sections (anchor, title, order, which
// sections share a card) and, per operation, the Portuguese text written around the pieces the
// document already holds (route, curl lines, parameters, fields, examples). Each openapi-*.ts
// writes these beside its operations, naming them by operationId.
//
// Why beside the document and not inside it as `x-` extensions: /openapi.json must stay exactly
// what clients already read, and a text here is a template over the operation rather than JSON, so
// inside the document it would need a stripping step before serving (one more place to forget).
// docs.ts checks the link both ways: an operationId the document lacks, or an operation of the
// document that no section presents, fails the page.
import type { Html } from '../web/html.ts';

/** One operation of the document, as the page's text uses it. */
export interface OperationView {
  /** `METHOD /path`, plus a sketch of the query if given, breakable after each slash. */
  route(query?: string): Html;
  readonly method: string;
  readonly path: string;
  /** The path with each path parameter's example, breakable after each slash. */
  examplePath(): Html;
  /** The operation's `x-codeSamples[i]` as a code block. */
  curl(i?: number): Html;
  /** The first curl line asking for the page after the 200 example (its `next_cursor`). */
  nextPageCurl(): Html;
  /** The table of the query parameters. */
  parameters(): Html;
  /** The field table of a part of the 200 answer: property names, an array standing for its items. */
  fields(...path: string[]): Html;
  /** The 200 answer's example as a JSON block, optionally cut short by `cut`. */
  example<T>(cut?: (value: T) => unknown): Html;
}

export interface PageContext {
  op(operationId: string): OperationView;
  /** The heading of one of the section's subsections. */
  h3(id: string): Html;
}

export interface PageSection {
  /** The anchor; the heading and the table of contents show `title`. */
  id: string;
  title: string;
  /** Headings inside the section listed in the table of contents; `code` titles are field names. */
  subsections?: readonly { id: string; title: string; code?: boolean }[];
  text(page: PageContext): Html;
}

/** The page in order, card by card; a card holds one section or a few that read together. */
export type PageCards = readonly (readonly PageSection[])[];
