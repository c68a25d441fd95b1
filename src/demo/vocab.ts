// The brand words of synthetic company and trade names, with the long-tailed frequency of real
// names: word ranks are Zipf(1) over ~2 million words, so at 60 M companies the first word
// (BRASIL) is in millions of names, the 160th in tens of thousands, and most of the tail in a
// handful. The first ranks are a hand-written list; the rest are made-up words composed from
// Portuguese-looking syllables, a fixed function of the rank (no table, same for every seed).
// Uppercase ASCII as in the dump; accentize() gives the few names that carry accents.

import { ZipfIndex, type Rng } from './prng.ts';

/** The most frequent brand words, most frequent first. */
const HEAD = [
  'BRASIL',
  'NOVA',
  'REAL',
  'CENTRAL',
  'SAO JOSE',
  'MASTER',
  'GLOBAL',
  'UNIAO',
  'PRIME',
  'SANTA RITA',
  'VIDA',
  'ARTE',
  'CASA',
  'MUNDO',
  'PONTO',
  'TOP',
  'MEGA',
  'SUPER',
  'BOA VISTA',
  'ESTRELA',
  'VITORIA',
  'BELLA',
  'FORTE',
  'TECH',
  'EXPRESS',
  'DIGITAL',
  'GRUPO',
  'ALFA',
  'AMERICA',
  'MODELO',
  'SAO JOAO',
  'IMPERIAL',
  'DIAMANTE',
  'AGUIA',
  'PRIMAVERA',
  'NOVA ERA',
  'PROGRESSO',
  'HORIZONTE',
  'PLANALTO',
  'ATLANTICO',
  'PAULISTA',
  'MINEIRA',
  'CARIOCA',
  'GAUCHA',
  'NORDESTE',
  'SUL',
  'NORTE',
  'BOM JESUS',
  'SAO JORGE',
  'SAO FRANCISCO',
  'SANTO ANTONIO',
  'NOSSA SENHORA APARECIDA',
  'DOCE LAR',
  'FAMILIA',
  'AMIGOS',
  'CONFIANCA',
  'ALIANCA',
  'PIONEIRA',
  'CRISTAL',
  'OURO',
  'PRATA',
  'OURO FINO',
  'ESMERALDA',
  'RUBI',
  'SAFIRA',
  'PEROLA',
  'LIDER',
  'ELITE',
  'PREMIUM',
  'VIP',
  'GOLD',
  'SMART',
  'INOVA',
  'FLEX',
  'MAIS',
  'BEM',
  'BOM',
  'BELO',
  'LUZ',
  'PAZ',
  'ESPERANCA',
  'ALEGRIA',
  'SABOR',
  'DOCE ACUCAR',
  'ACUCAR',
  'MEL',
  'CAFE',
  'PAO',
  'TRIGO',
  'VERDE',
  'AZUL',
  'DOURADO',
  'IPE',
  'JEQUITIBA',
  'PALMEIRA',
  'CERRADO',
  'SERTAO',
  'LITORAL',
  'MAR',
  'RIO',
  'SERRA',
  'VALE',
  'MONTE',
  'CAMPO',
  'PORTO',
  'LAGO',
  'ILHA',
  'PRAIA',
  'FLOR',
  'ROSA',
  'GIRASSOL',
  'ORQUIDEA',
  'CANTINHO',
  'ESPACO',
  'RECANTO',
  'CAMINHO',
  'PORTAL',
  'NOVO TEMPO',
  'NOVA VIDA',
  'BOM GOSTO',
  'KIDS',
  'BABY',
  'PET',
  'FIT',
  'MED',
  'ODONTO',
  'AUTO',
  'MOTO',
  'AGRO',
  'BIO',
  'ECO',
  'TERRA',
  'AGUA',
  'CEU',
  'SOL NASCENTE',
  'LUA',
  'REI',
  'RAINHA',
  'IMPERIO',
  'CASTELO',
  'OMEGA',
  'DELTA',
  'SIGMA',
  'BETA',
  'VALE VERDE',
  'MONTE SIAO',
  'SOL',
  'SANTA LUZIA',
  'SAO PEDRO',
  'SANTA CRUZ',
  'BELA VISTA',
  'JARDIM',
  'CIDADE',
  'PLANETA',
  'MAXI',
  'MULTI',
  'UNI',
  'ALPHA',
  'NOBRE',
  'STAR',
];

// Syllables: any onset at the start of a word; NH and LH only inside; bare vowels only first.
const VOWELS = ['A', 'E', 'I', 'O', 'U'];
const ONSETS = [
  'B',
  'C',
  'D',
  'F',
  'G',
  'J',
  'L',
  'M',
  'N',
  'P',
  'R',
  'S',
  'T',
  'V',
  'X',
  'Z',
  'BR',
  'CR',
  'PR',
  'TR',
  'CH',
];
const CV = ONSETS.flatMap((o) => VOWELS.map((v) => o + v)).concat(['QUA', 'QUE', 'QUI', 'GUA', 'GUE', 'GUI']);
const FIRST = CV.concat(VOWELS);
const INNER = CV.concat(['NHA', 'NHE', 'NHO', 'LHA', 'LHE', 'LHO', 'LHU']);
const CODAS = ['', 'S', 'R', 'L'];
const TWO = FIRST.length * INNER.length * CODAS.length;
const THREE = TWO * INNER.length;
/** Made-up words beyond HEAD: all two-syllable ones, then three-syllable ones. */
const GENERATED = 2_000_000;
// Words a customer must not meet in a demo; a made-up word containing one is replaced.
const OFFENSIVE =
  /PUT[AO]|BOST|MERD|PORR|CACET|BUCET|XOXOT|VIAD|CARALH|FOD[AEI]|CUZ|BROX|XERE|BUND|XIBIU|CHUP|BICH[AO]/;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A multiplier near `m` coprime with `n`: i → i·m mod n then scatters ranks over the block. */
function coprime(m: number, n: number): number {
  while (gcd(m, n) !== 1) m++;
  return m;
}
const MUL_TWO = coprime(40_503, TWO);
const MUL_THREE = coprime(2_654_435, THREE);

function compose(code: number, syllables: number): string {
  const coda = CODAS[code % CODAS.length];
  code = Math.floor(code / CODAS.length);
  let s = '';
  for (let k = 1; k < syllables; k++) {
    s = INNER[code % INNER.length] + s;
    code = Math.floor(code / INNER.length);
  }
  return FIRST[code] + s + coda;
}

/** The made-up word of generated rank `g` (0 ≤ g < GENERATED): distinct ranks, distinct words. */
function generated(g: number): string {
  const two = g < TWO;
  const size = two ? TWO : THREE;
  let code = ((two ? g : g - TWO) * (two ? MUL_TWO : MUL_THREE)) % size;
  let w = compose(code, two ? 2 : 3);
  while (OFFENSIVE.test(w)) {
    code = (code + 7919) % size;
    w = compose(code, two ? 2 : 3);
  }
  return w;
}

const BRAND_ZIPF = new ZipfIndex(HEAD.length + GENERATED, 1);
// Surnames beyond the common list: made-up, long-tailed, but with a flat head (none dominates).
const SURNAME_ZIPF = new ZipfIndex(GENERATED, 200);

/** A brand word drawn with Zipf(1) frequency (sometimes two words, e.g. SAO JOAO). */
export function brandWord(r: Rng): string {
  const i = BRAND_ZIPF.pick(r);
  return i < HEAD.length ? HEAD[i] : generated(i - HEAD.length);
}

/** A made-up surname from the long tail. */
export function rareSurname(r: Rng): string {
  return generated(SURNAME_ZIPF.pick(r));
}

/** The word at brand rank `i` (0 = the most frequent), for tests and docs. */
export function brandWordAt(i: number): string {
  return i < HEAD.length ? HEAD[i] : generated(i - HEAD.length);
}

// Words that a few names carry with their accents, as typed in the registry by hand.
const ACCENTED = new Map<string, string>(
  Object.entries({
    COMERCIO: 'COMÉRCIO',
    SERVICOS: 'SERVIÇOS',
    SAO: 'SÃO',
    JOAO: 'JOÃO',
    ACUCAR: 'AÇÚCAR',
    CONSTRUCOES: 'CONSTRUÇÕES',
    CONSTRUCAO: 'CONSTRUÇÃO',
    INFORMATICA: 'INFORMÁTICA',
    ALIMENTACAO: 'ALIMENTAÇÃO',
    CONFECCOES: 'CONFECÇÕES',
    CALCADOS: 'CALÇADOS',
    ACOUGUE: 'AÇOUGUE',
    FARMACIA: 'FARMÁCIA',
    PECAS: 'PEÇAS',
    ASSOCIACAO: 'ASSOCIAÇÃO',
    PAROQUIA: 'PARÓQUIA',
    CONDOMINIO: 'CONDOMÍNIO',
    EDIFICIO: 'EDIFÍCIO',
    ESTETICA: 'ESTÉTICA',
    EDUCACAO: 'EDUCAÇÃO',
    ODONTOLOGICOS: 'ODONTOLÓGICOS',
    MEDICOS: 'MÉDICOS',
    LOGISTICA: 'LOGÍSTICA',
    CONFIANCA: 'CONFIANÇA',
    ALIANCA: 'ALIANÇA',
    UNIAO: 'UNIÃO',
    VITORIA: 'VITÓRIA',
    ATLANTICO: 'ATLÂNTICO',
    SERTAO: 'SERTÃO',
    ESPACO: 'ESPAÇO',
    JOSE: 'JOSÉ',
    ANTONIO: 'ANTÔNIO',
    SEBASTIAO: 'SEBASTIÃO',
    GONCALVES: 'GONÇALVES',
    BRANDAO: 'BRANDÃO',
    ARAUJO: 'ARAÚJO',
    MAES: 'MÃES',
    CRISTA: 'CRISTÃ',
    ESPIRITA: 'ESPÍRITA',
    EVANGELICA: 'EVANGÉLICA',
    SALAO: 'SALÃO',
    CAFE: 'CAFÉ',
    PAO: 'PÃO',
    ESPERANCA: 'ESPERANÇA',
    IPE: 'IPÊ',
    JEQUITIBA: 'JEQUITIBÁ',
    ORQUIDEA: 'ORQUÍDEA',
    PEROLA: 'PÉROLA',
    IMPERIO: 'IMPÉRIO',
    CEU: 'CÉU',
    AGUA: 'ÁGUA',
    AGUIA: 'ÁGUIA',
    FATIMA: 'FÁTIMA',
    GRACAS: 'GRAÇAS',
    LUCIA: 'LÚCIA',
    ANDRE: 'ANDRÉ',
    MARCIA: 'MÁRCIA',
    PATRICIA: 'PATRÍCIA',
    LETICIA: 'LETÍCIA',
    JESSICA: 'JÉSSICA',
    DEBORA: 'DÉBORA',
    TECNICA: 'TÉCNICA',
    METALURGICA: 'METALÚRGICA',
    MINERACAO: 'MINERAÇÃO',
    AGROPECUARIA: 'AGROPECUÁRIA',
    PARTICIPACOES: 'PARTICIPAÇÕES',
    REPRESENTACOES: 'REPRESENTAÇÕES',
    MUNICIPIO: 'MUNICÍPIO',
    CAMARA: 'CÂMARA',
    SAUDE: 'SAÚDE',
    ELEICAO: 'ELEIÇÃO',
    GOIANIA: 'GOIÂNIA',
    BELEM: 'BELÉM',
    CUIABA: 'CUIABÁ',
  }),
);

/** `s` with the accents of the words that have them (SAO JOAO → SÃO JOÃO); Latin-1 only. */
export function accentize(s: string): string {
  return s
    .split(' ')
    .map((w) => ACCENTED.get(w) ?? w)
    .join(' ');
}
