// The IBGE code of a municipality from its SIAFI code (the code the Receita's dump uses), from
// the table shipped in ibge-data.ts. Parsed once, on first use.
import { SIAFI_IBGE_PAIRS } from './ibge-data.ts';

let table: Map<number, number> | null = null;

function load(): Map<number, number> {
  const m = new Map<number, number>();
  for (const pair of SIAFI_IBGE_PAIRS.split(/\s+/)) {
    if (pair === '') continue;
    const colon = pair.indexOf(':');
    m.set(Number(pair.slice(0, colon)), Number(pair.slice(colon + 1)));
  }
  return m;
}

/** The IBGE code (7 digits) of a SIAFI municipality code; null when the table lacks it. */
export function ibgeOfSiafi(siafi: number): number | null {
  table ??= load();
  return table.get(siafi) ?? null;
}
