// Where synthetic companies are: municipality counts and populations per UF, SIAFI code blocks,
// and the largest cities with their real codes and populations (IBGE, Census 2022, in
// thousands). Companies are drawn by population: a UF by its share of Brazil, then a city of the
// UF by its share of the UF (code-tables.ts gives the made-up cities a long-tailed share of the rest).

// uf, number of municipalities (5,570 in all), population in thousands
export const UF_MUNICIPIOS: ReadonlyArray<readonly [string, number, number]> = [
  ['RO', 52, 1582], ['AC', 22, 830], ['AM', 62, 3941], ['RR', 15, 636], ['PA', 144, 8121], ['AP', 16, 733], ['TO', 139, 1511],
  ['MA', 217, 6775], ['PI', 224, 3271], ['CE', 184, 8794], ['RN', 167, 3302], ['PB', 223, 3974], ['PE', 184, 9058], ['AL', 102, 3127],
  ['SE', 75, 2210], ['BA', 417, 14141], ['MG', 853, 20539], ['ES', 78, 3833], ['RJ', 92, 16055], ['SP', 645, 44411], ['PR', 399, 11444],
  ['SC', 295, 7610], ['RS', 497, 10883], ['MS', 79, 2757], ['MT', 141, 3658], ['GO', 246, 7056], ['DF', 1, 2817],
];

// SIAFI code blocks per UF (approximate real layout: 0001.. RO, 0101.. AC, …).
export const UF_CODE_START: Record<string, number> = {
  RO: 1, AC: 101, AM: 201, RR: 301, PA: 401, AP: 601, MA: 701, PI: 1001, CE: 1301, RN: 1601, PB: 1901, PE: 2301,
  AL: 2701, SE: 3101, BA: 3301, MG: 4001, ES: 5601, RJ: 5801, SP: 6101, PR: 7401, SC: 8001, RS: 8501, MS: 9001,
  MT: 8901, GO: 9201, TO: 9501, DF: 9701,
};

// Real SIAFI codes of the capitals and largest cities: code, name, UF, population in thousands.
// 1182 is the newest municipality (2025), kept for the code's sake.
export const BIG_CITIES: ReadonlyArray<readonly [string, string, string, number]> = [
  ['0003', 'PORTO VELHO', 'RO', 460], ['0005', 'JI-PARANA', 'RO', 124], ['0001', 'GUAJARA-MIRIM', 'RO', 39],
  ['0139', 'RIO BRANCO', 'AC', 364], ['0107', 'CRUZEIRO DO SUL', 'AC', 91],
  ['0255', 'MANAUS', 'AM', 2063], ['0269', 'PARINTINS', 'AM', 96],
  ['0301', 'BOA VISTA', 'RR', 414],
  ['0427', 'BELEM', 'PA', 1303], ['0415', 'ANANINDEUA', 'PA', 478], ['0535', 'SANTAREM', 'PA', 331],
  ['0605', 'MACAPA', 'AP', 442], ['0615', 'SANTANA', 'AP', 107],
  ['9733', 'PALMAS', 'TO', 302], ['9241', 'ARAGUAINA', 'TO', 171], ['9385', 'GURUPI', 'TO', 85],
  ['0921', 'SAO LUIS', 'MA', 1037], ['0803', 'IMPERATRIZ', 'MA', 273], ['0937', 'TIMON', 'MA', 174],
  ['1219', 'TERESINA', 'PI', 866], ['1153', 'PARNAIBA', 'PI', 162],
  ['1389', 'FORTALEZA', 'CE', 2428], ['1373', 'CAUCAIA', 'CE', 355], ['1447', 'JUAZEIRO DO NORTE', 'CE', 286], ['1559', 'SOBRAL', 'CE', 203],
  ['1761', 'NATAL', 'RN', 751], ['1759', 'MOSSORO', 'RN', 264], ['1779', 'PARNAMIRIM', 'RN', 252],
  ['2051', 'JOAO PESSOA', 'PB', 833], ['1981', 'CAMPINA GRANDE', 'PB', 419], ['2175', 'SANTA RITA', 'PB', 149],
  ['2531', 'RECIFE', 'PE', 1488], ['2457', 'JABOATAO DOS GUARARAPES', 'PE', 644], ['2521', 'PETROLINA', 'PE', 386], ['2381', 'CARUARU', 'PE', 378],
  ['2785', 'MACEIO', 'AL', 957], ['2705', 'ARAPIRACA', 'AL', 234],
  ['3105', 'ARACAJU', 'SE', 602], ['3195', 'NOSSA SENHORA DO SOCORRO', 'SE', 193], ['3169', 'LAGARTO', 'SE', 105],
  ['3849', 'SALVADOR', 'BA', 2418], ['3515', 'FEIRA DE SANTANA', 'BA', 616], ['3965', 'VITORIA DA CONQUISTA', 'BA', 370], ['3413', 'CAMACARI', 'BA', 300], ['3597', 'ITABUNA', 'BA', 186],
  ['4123', 'BELO HORIZONTE', 'MG', 2316], ['5403', 'UBERLANDIA', 'MG', 713], ['4371', 'CONTAGEM', 'MG', 621], ['4733', 'JUIZ DE FORA', 'MG', 540], ['4865', 'MONTES CLAROS', 'MG', 414], ['4133', 'BETIM', 'MG', 411],
  ['5705', 'VITORIA', 'ES', 322], ['5699', 'SERRA', 'ES', 520], ['5703', 'VILA VELHA', 'ES', 467], ['5625', 'CARIACICA', 'ES', 353],
  ['6001', 'RIO DE JANEIRO', 'RJ', 6211], ['5897', 'SAO GONCALO', 'RJ', 896], ['5833', 'DUQUE DE CAXIAS', 'RJ', 808], ['5869', 'NOVA IGUACU', 'RJ', 786],
  ['7107', 'SAO PAULO', 'SP', 11451], ['6477', 'GUARULHOS', 'SP', 1291], ['6291', 'CAMPINAS', 'SP', 1139], ['7075', 'SAO BERNARDO DO CAMPO', 'SP', 811],
  ['7057', 'SANTO ANDRE', 'SP', 748], ['6789', 'OSASCO', 'SP', 728], ['7145', 'SOROCABA', 'SP', 723], ['6969', 'RIBEIRAO PRETO', 'SP', 698], ['7099', 'SAO JOSE DOS CAMPOS', 'SP', 697],
  ['7535', 'CURITIBA', 'PR', 1774], ['7667', 'LONDRINA', 'PR', 555], ['7691', 'MARINGA', 'PR', 409], ['7493', 'CASCAVEL', 'PR', 348],
  ['8105', 'FLORIANOPOLIS', 'SC', 537], ['8179', 'JOINVILLE', 'SC', 616], ['8047', 'BLUMENAU', 'SC', 361],
  ['8801', 'PORTO ALEGRE', 'RS', 1332], ['8599', 'CAXIAS DO SUL', 'RS', 463], ['8589', 'CANOAS', 'RS', 348], ['8791', 'PELOTAS', 'RS', 325],
  ['9051', 'CAMPO GRANDE', 'MS', 898], ['9073', 'DOURADOS', 'MS', 243], ['9165', 'TRES LAGOAS', 'MS', 132],
  ['9067', 'CUIABA', 'MT', 650], ['9167', 'VARZEA GRANDE', 'MT', 300], ['9151', 'RONDONOPOLIS', 'MT', 244], ['1182', 'BOA ESPERANCA DO NORTE', 'MT', 6],
  ['9373', 'GOIANIA', 'GO', 1437], ['9227', 'APARECIDA DE GOIANIA', 'GO', 527], ['9221', 'ANAPOLIS', 'GO', 398], ['9571', 'RIO VERDE', 'GO', 225],
  ['9701', 'BRASILIA', 'DF', 2817],
];
