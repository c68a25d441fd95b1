// Source kind → the rules that turn its records into snapshot rows.
import type { SourceKind } from '../import-plan.ts';
import { companiesSource } from './companies.ts';
import { establishmentsSource } from './establishments.ts';
import { codeTableSource } from './code-tables.ts';
import { partnersSource } from './partners.ts';
import { regimesSource } from './regimes.ts';
import { simplesSource } from './simples.ts';
import type { SourceTable } from './source-table.ts';

export function sourceTable(kind: SourceKind): SourceTable {
  switch (kind) {
    case 'establishments':
      return establishmentsSource;
    case 'companies':
      return companiesSource;
    case 'simples':
      return simplesSource;
    case 'partners':
      return partnersSource;
    case 'regimes':
      return regimesSource;
    default:
      return codeTableSource(kind);
  }
}
