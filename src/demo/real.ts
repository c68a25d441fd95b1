// Records every dump contains, so tests and the demo can rely on them. The SERPRO and Open
// Knowledge Brasil rows are copied from the real sample files (test/fixtures/receita-mini);
// OKBR's head office and the alphanumeric company are synthetic, marked below.

import { makeCnpj } from '../domain/cnpj.ts';

export interface FixedRecords {
  /** [shard, fields] */
  empresas: Array<[number, string[]]>;
  estabelecimentos: Array<[number, string[]]>;
  socios: Array<[number, string[]]>;
  simples: string[][];
  /** regime file name → rows of [ano, cnpj formatted, scp, forma, quantidade] */
  regimes: Array<[number, string, string, string, number]>;
  /** Valid CNPJs that exist in the dump. */
  cnpjs: string[];
  bases: string[];
}

export const SERPRO_BASE = '33683111';
export const OKBR_BASE = '19131243';
export const ALNUM_BASE = '12ABC345';
export const ALNUM_ORDER = '01DE';

/** Secondary-CNAE codes and descriptions of the SERPRO branch, verbatim. */
export const SERPRO_CNAES = ['6204000', '6201501', '6202300', '6203100', '6209100', '6311900'];

export function fixedRecords(extractionYmd: string): FixedRecords {
  // The alphanumeric company opened after the July 2026 start (or on the extraction day of an earlier month).
  const alnumStart = extractionYmd < '20260715' ? extractionYmd : '20260715';
  const okbr = makeCnpj(OKBR_BASE, '0001');
  const alnum = makeCnpj(ALNUM_BASE, ALNUM_ORDER);
  return {
    empresas: [
      [0, [OKBR_BASE, 'OPEN KNOWLEDGE BRASIL', '3999', '16', '0,00', '05', '']],
      [1, [SERPRO_BASE, 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)', '2011', '16', '1061004829,23', '05', '']],
      // synthetic
      [3, [ALNUM_BASE, 'ALFANUMERICA SOLUCOES DIGITAIS LTDA', '2062', '49', '50000,00', '01', '']],
    ],
    estabelecimentos: [
      [
        0,
        [
          SERPRO_BASE,
          '0002',
          '80',
          '2',
          'REGIONAL BRASILIA-DF',
          '02',
          '20040522',
          '00',
          '',
          '',
          '19670630',
          '6204000',
          '6201501,6202300,6203100,6209100,6311900',
          'AVENIDA',
          'L2 SGAN',
          '601',
          'MODULO G',
          'ASA NORTE',
          '70836900',
          'DF',
          '9701',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
        ],
      ],
      // synthetic head office for OKBR (only the key is real)
      [
        0,
        [
          OKBR_BASE,
          '0001',
          okbr.slice(12),
          '1',
          'OKBR',
          '02',
          '20131015',
          '00',
          '',
          '',
          '20131015',
          '9430800',
          '9499500,7319002',
          'RUA',
          'AUGUSTA',
          '1000',
          'SALA 1',
          'CONSOLACAO',
          '01304001',
          'SP',
          '7107',
          '11',
          '30000000',
          '',
          '',
          '',
          '',
          'contato@ok.org.br',
          '',
          '',
        ],
      ],
      // synthetic alphanumeric company (IN RFB 2.229/2024): letters in base and order
      [
        4,
        [
          ALNUM_BASE,
          ALNUM_ORDER,
          alnum.slice(12),
          '1',
          'ALFANUMERICA',
          '02',
          alnumStart,
          '00',
          '',
          '',
          alnumStart,
          '6204000',
          '6201501',
          'RUA',
          'DAS FLORES',
          '100',
          'SALA 12',
          'CENTRO',
          '01001000',
          'SP',
          '7107',
          '11',
          '912345678',
          '',
          '',
          '',
          '',
          'Contato@Alfanumerica.com.br',
          '',
          '',
        ],
      ],
    ],
    socios: [
      [0, [SERPRO_BASE, '2', 'ANDRE DE CESERO', '***220050**', '10', '20160616', '', '***000000**', '', '00', '6']],
      [
        0,
        [
          SERPRO_BASE,
          '2',
          'ANTONIO DE PADUA FERREIRA PASSOS',
          '***595901**',
          '10',
          '20161208',
          '',
          '***000000**',
          '',
          '00',
          '7',
        ],
      ],
      [
        0,
        [SERPRO_BASE, '2', 'WILSON BIANCARDI COURY', '***414127**', '10', '20190618', '', '***000000**', '', '00', '8'],
      ],
      [
        0,
        [SERPRO_BASE, '2', 'GILENO GURJAO BARRETO', '***099595**', '16', '20200203', '', '***000000**', '', '00', '5'],
      ],
      [
        0,
        [
          SERPRO_BASE,
          '2',
          'RICARDO CEZAR DE MOURA JUCA',
          '***989951**',
          '10',
          '20200512',
          '',
          '***000000**',
          '',
          '00',
          '5',
        ],
      ],
      [
        0,
        [
          SERPRO_BASE,
          '2',
          'ANTONINO DOS SANTOS GUERRA NETO',
          '***073447**',
          '05',
          '20190211',
          '',
          '***000000**',
          '',
          '00',
          '7',
        ],
      ],
      [
        0,
        [
          OKBR_BASE,
          '2',
          'FERNANDA CAMPAGNUCCI PEREIRA',
          '***690948**',
          '16',
          '20191025',
          '',
          '***000000**',
          '',
          '00',
          '4',
        ],
      ],
      [2, [ALNUM_BASE, '2', 'MARIANA COSTA LIMA', '***381204**', '49', alnumStart, '', '***000000**', '', '00', '4']],
    ],
    simples: [
      [SERPRO_BASE, 'S', '20140101', '00000000', 'N', '00000000', '00000000'],
      [ALNUM_BASE, 'S', alnumStart, '00000000', 'N', '00000000', '00000000'],
    ],
    regimes: [[2018, '33.683.111/0002-80', '0', 'LUCRO PRESUMIDO', 1]],
    cnpjs: [makeCnpj(SERPRO_BASE, '0002'), okbr, alnum],
    bases: [SERPRO_BASE, OKBR_BASE, ALNUM_BASE],
  };
}
