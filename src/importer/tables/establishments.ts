// Estabelecimentos (`*.ESTABELE`, 30 fields) → establishments.
import { checkDigits } from '../../domain/cnpj.ts';
import { establishments } from '../../storage/snapshots/tables.ts';
import { cep, code, codeList, date, keyPart, phone, text } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export const establishmentsSource: SourceTable = {
  table: establishments,
  fields: 30,
  toRow(f) {
    const base = keyPart(f[0], 8);
    const order = keyPart(f[1], 4);
    const dv = f[2].trim().padStart(2, '0');
    if (!base || !order || !/^\d\d$/.test(dv)) return 'malformed CNPJ';
    const body = base + order;
    if (checkDigits(body) !== dv) return 'wrong CNPJ check digits';
    return [
      body + dv,
      code(f[3]),
      text(f[4]),
      code(f[5]),
      date(f[6]),
      code(f[7]),
      text(f[8]),
      code(f[9]),
      date(f[10]),
      code(f[11]),
      codeList(f[12]),
      text(f[13]),
      text(f[14]),
      text(f[15]),
      text(f[16]),
      text(f[17]),
      cep(f[18]),
      text(f[19]),
      code(f[20]),
      phone(f[21]),
      phone(f[22]),
      phone(f[23]),
      phone(f[24]),
      phone(f[25]),
      phone(f[26]),
      text(f[27]),
      text(f[28]),
      date(f[29]),
    ];
  },
};
