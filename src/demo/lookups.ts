// The six lookup tables. They come from a fixed internal seed, not the dump seed: the real
// tables barely change between months, and tests can then rely on their sizes and codes.
// Real codes and descriptions are used where they are well known; the rest is synthetic.

import { CNAE_QUALIFIERS, DIVISIONS, REAL_CNAES } from './cnae-data.ts';
import { Rng, Weighted } from './prng.ts';
import { PLACE_HEADS, PLACE_TAILS } from './words.ts';

export interface Row2 {
  code: string;
  desc: string;
}

export interface Municipio extends Row2 {
  uf: string;
}

export interface Lookups {
  cnaes: Row2[];
  motivos: Row2[];
  municipios: Municipio[];
  naturezas: Row2[];
  paises: Row2[];
  qualificacoes: Row2[];
  /** Weighted choice of a principal CNAE code (common activities more often). */
  cnaePicker: Weighted<string>;
  /** Municipalities by UF, with the capital/large cities first and heavier. */
  municipioPickers: Map<string, Weighted<Municipio>>;
}

const LOOKUP_SEED = 0x5eed_cafe;

export const NATUREZAS: ReadonlyArray<readonly [string, string]> = [
  ['0000', 'Natureza Jurídica não informada'],
  ['1015', 'Órgão Público do Poder Executivo Federal'],
  ['1023', 'Órgão Público do Poder Executivo Estadual ou do Distrito Federal'],
  ['1031', 'Órgão Público do Poder Executivo Municipal'],
  ['1040', 'Órgão Público do Poder Legislativo Federal'],
  ['1058', 'Órgão Público do Poder Legislativo Estadual ou do Distrito Federal'],
  ['1066', 'Órgão Público do Poder Legislativo Municipal'],
  ['1074', 'Órgão Público do Poder Judiciário Federal'],
  ['1082', 'Órgão Público do Poder Judiciário Estadual'],
  ['1104', 'Autarquia Federal'],
  ['1112', 'Autarquia Estadual ou do Distrito Federal'],
  ['1120', 'Autarquia Municipal'],
  ['1139', 'Fundação Pública de Direito Público Federal'],
  ['1147', 'Fundação Pública de Direito Público Estadual ou do Distrito Federal'],
  ['1155', 'Fundação Pública de Direito Público Municipal'],
  ['1163', 'Órgão Público Autônomo Federal'],
  ['1171', 'Órgão Público Autônomo Estadual ou do Distrito Federal'],
  ['1180', 'Órgão Público Autônomo Municipal'],
  ['1198', 'Comissão Polinacional'],
  ['1210', 'Consórcio Público de Direito Público (Associação Pública)'],
  ['1228', 'Consórcio Público de Direito Privado'],
  ['1236', 'Estado ou Distrito Federal'],
  ['1244', 'Município'],
  ['1252', 'Fundação Pública de Direito Privado Federal'],
  ['1260', 'Fundação Pública de Direito Privado Estadual ou do Distrito Federal'],
  ['1279', 'Fundação Pública de Direito Privado Municipal'],
  ['1287', 'Fundo Público da Administração Indireta Federal'],
  ['1295', 'Fundo Público da Administração Indireta Estadual ou do Distrito Federal'],
  ['1309', 'Fundo Público da Administração Indireta Municipal'],
  ['1317', 'Fundo Público da Administração Direta Federal'],
  ['1325', 'Fundo Público da Administração Direta Estadual ou do Distrito Federal'],
  ['1333', 'Fundo Público da Administração Direta Municipal'],
  ['1341', 'União'],
  ['2011', 'Empresa Pública'],
  ['2038', 'Sociedade de Economia Mista'],
  ['2046', 'Sociedade Anônima Aberta'],
  ['2054', 'Sociedade Anônima Fechada'],
  ['2062', 'Sociedade Empresária Limitada'],
  ['2070', 'Sociedade Empresária em Nome Coletivo'],
  ['2089', 'Sociedade Empresária em Comandita Simples'],
  ['2097', 'Sociedade Empresária em Comandita por Ações'],
  ['2127', 'Sociedade em Conta de Participação'],
  ['2135', 'Empresário (Individual)'],
  ['2143', 'Cooperativa'],
  ['2151', 'Consórcio de Sociedades'],
  ['2160', 'Grupo de Sociedades'],
  ['2178', 'Estabelecimento, no Brasil, de Sociedade Estrangeira'],
  ['2194', 'Estabelecimento, no Brasil, de Empresa Binacional Argentino-Brasileira'],
  ['2216', 'Empresa Domiciliada no Exterior'],
  ['2224', 'Clube/Fundo de Investimento'],
  ['2232', 'Sociedade Simples Pura'],
  ['2240', 'Sociedade Simples Limitada'],
  ['2259', 'Sociedade Simples em Nome Coletivo'],
  ['2267', 'Sociedade Simples em Comandita Simples'],
  ['2275', 'Empresa Binacional'],
  ['2283', 'Consórcio de Empregadores'],
  ['2291', 'Consórcio Simples'],
  ['2305', 'Empresa Individual de Responsabilidade Limitada (de Natureza Empresária)'],
  ['2313', 'Empresa Individual de Responsabilidade Limitada (de Natureza Simples)'],
  ['2321', 'Sociedade Unipessoal de Advocacia'],
  ['2330', 'Cooperativas de Consumo'],
  ['2348', 'Empresa Simples de Inovação - Inova Simples'],
  ['3034', 'Serviço Notarial e Registral (Cartório)'],
  ['3069', 'Fundação Privada'],
  ['3077', 'Serviço Social Autônomo'],
  ['3085', 'Condomínio Edilício'],
  ['3107', 'Comissão de Conciliação Prévia'],
  ['3115', 'Entidade de Mediação e Arbitragem'],
  ['3131', 'Entidade Sindical'],
  ['3204', 'Estabelecimento, no Brasil, de Fundação ou Associação Estrangeiras'],
  ['3212', 'Fundação ou Associação Domiciliada no Exterior'],
  ['3220', 'Organização Religiosa'],
  ['3239', 'Comunidade Indígena'],
  ['3247', 'Fundo Privado'],
  ['3255', 'Órgão de Direção Nacional de Partido Político'],
  ['3263', 'Órgão de Direção Regional de Partido Político'],
  ['3271', 'Órgão de Direção Local de Partido Político'],
  ['3280', 'Comitê Financeiro de Partido Político'],
  ['3298', 'Frente Plebiscitária ou Referendária'],
  ['3301', 'Organização Social (OS)'],
  ['3310', 'Demais Condomínios'],
  ['3999', 'Associação Privada'],
  ['4014', 'Empresa Individual Imobiliária'],
  ['4022', 'Segurado Especial'],
  ['4081', 'Contribuinte individual'],
  ['4090', 'Candidato a Cargo Político Eletivo'],
  ['4111', 'Leiloeiro'],
  ['4120', 'Produtor Rural (Pessoa Física)'],
  ['5010', 'Organização Internacional'],
  ['5029', 'Representação Diplomática Estrangeira'],
  ['5037', 'Outras Instituições Extraterritoriais'],
];

// 68 codes; 36 (Gerente-Delegado) is deliberately absent, as in the real file.
export const QUALIFICACOES: ReadonlyArray<readonly [string, string]> = [
  ['00', 'Não informada'], ['05', 'Administrador'], ['08', 'Conselheiro de Administração'], ['09', 'Curador'],
  ['10', 'Diretor'], ['11', 'Interventor'], ['12', 'Inventariante'], ['13', 'Liquidante'], ['14', 'Mãe'],
  ['15', 'Pai'], ['16', 'Presidente'], ['17', 'Procurador'], ['18', 'Secretário'], ['19', 'Síndico (Condomínio)'],
  ['20', 'Sociedade Consorciada'], ['21', 'Sociedade Filiada'], ['22', 'Sócio'], ['23', 'Sócio Capitalista'],
  ['24', 'Sócio Comanditado'], ['25', 'Sócio Comanditário'], ['26', 'Sócio de Indústria'], ['28', 'Sócio-Gerente'],
  ['29', 'Sócio Incapaz ou Relat.Incapaz (exceto menor)'], ['30', 'Sócio Menor (Assistido/Representado)'],
  ['31', 'Sócio Ostensivo'], ['32', 'Tabelião'], ['33', 'Tesoureiro'], ['34', 'Titular de Empresa Individual Imobiliária'],
  ['35', 'Tutor'], ['37', 'Sócio Pessoa Jurídica Domiciliado no Exterior'], ['38', 'Sócio Pessoa Física Residente no Exterior'],
  ['39', 'Diplomata'], ['40', 'Cônsul'], ['41', 'Representante de Organização Internacional'], ['42', 'Oficial de Registro'],
  ['43', 'Responsável'], ['46', 'Ministro de Estado das Relações Exteriores'], ['47', 'Sócio Pessoa Física Residente no Brasil'],
  ['48', 'Sócio Pessoa Jurídica Domiciliado no Brasil'], ['49', 'Sócio-Administrador'], ['50', 'Empresário'],
  ['51', 'Candidato a cargo Político Eletivo'], ['52', 'Sócio com Capital'], ['53', 'Sócio sem Capital'], ['54', 'Fundador'],
  ['55', 'Sócio Comanditado Residente no Exterior'], ['56', 'Sócio Comanditário Pessoa Física Residente no Exterior'],
  ['57', 'Sócio Comanditário Pessoa Jurídica Domiciliado no Exterior'], ['58', 'Sócio Comanditário Incapaz'],
  ['59', 'Produtor Rural'], ['60', 'Cônsul Honorário'], ['61', 'Responsável indígena'],
  ['62', 'Representante da Instituição Extraterritorial'], ['63', 'Cotas em Tesouraria'], ['64', 'Administrador Judicial'],
  ['65', 'Titular Pessoa Física Residente ou Domiciliado no Brasil'], ['66', 'Titular Pessoa Física Residente ou Domiciliado no Exterior'],
  ['67', 'Titular Pessoa Física Incapaz ou Relativamente Incapaz (exceto menor)'], ['68', 'Titular Pessoa Física Menor (Assistido/Representado)'],
  ['69', 'Beneficiário Final'], ['70', 'Administrador Residente ou Domiciliado no Exterior'],
  ['71', 'Conselheiro de Administração Residente ou Domiciliado no Exterior'], ['72', 'Diretor Residente ou Domiciliado no Exterior'],
  ['73', 'Presidente Residente ou Domiciliado no Exterior'], ['74', 'Sócio-Administrador Residente ou Domiciliado no Exterior'],
  ['75', 'Fundador Residente ou Domiciliado no Exterior'], ['76', 'Protetor'], ['77', 'Vice-Presidente'],
];

// Motivos: uppercase without accents, as shipped. 32 is deliberately absent (a known orphan).
export const MOTIVOS: ReadonlyArray<readonly [string, string]> = [
  ['00', 'SEM  MOTIVO'], ['01', 'EXTINCAO POR ENCERRAMENTO LIQUIDACAO VOLUNTARIA'], ['02', 'INCORPORACAO'], ['03', 'FUSAO'],
  ['04', 'CISAO TOTAL'], ['05', 'ENCERRAMENTO DA FALENCIA'], ['06', 'ENCERRAMENTO DA LIQUIDACAO'], ['07', 'ELEVACAO A MATRIZ'],
  ['08', 'TRANSPASSE'], ['09', 'NAO INICIO DE ATIVIDADE'], ['10', 'EXTINCAO PELO ENCERRAMENTO DA LIQUIDACAO JUDICIAL'],
  ['11', 'ANULACAO POR MULTICIPLIDADE'], ['12', 'ANULACAO ONLINE DE OFICIO'], ['13', 'OMISSA CONTUMAZ'], ['14', 'OMISSA NAO LOCALIZADA'],
  ['15', 'INEXISTENTE DE FATO'], ['16', 'ANULACAO POR VICIOS'], ['17', 'BAIXA INICIADA EM ANALISE'],
  ['18', 'INTERRUPCAO TEMPORARIA DAS ATIVIDADES'], ['21', 'PEDIDO DE BAIXA INDEFERIDA'], ['24', 'POR EMISSAO CERTIDAO NEGATIVA'],
  ['28', 'TRANSFERENCIA FILIAL CONDICAO MATRIZ'], ['31', 'EXTINCAO-UNIFICACAO DA FILIAL'],
  ['33', 'TRANSFERENCIA DO ORGAO LOCAL A CONDICAO DE FILIAL DO ORGAO REGIONAL'], ['34', 'ANULACAO DE INSCRICAO INDEVIDA'],
  ['35', 'EMPRESA ESTRANGEIRA AGUARDANDO DOCUMENTACAO'], ['36', 'PRATICA IRREGULAR DE OPERACAO DE COMERCIO EXTERIOR'],
  ['37', 'BAIXA DE PRODUTOR RURAL'], ['38', 'BAIXA DEFERIDA PELA RFB AGUARDANDO ANALISE DO CONVENENTE'],
  ['39', 'BAIXA DEFERIDA PELA RFB E INDEFERIDA PELO CONVENENTE'], ['40', 'BAIXA INDEFERIDA PELA RFB E AGUARDANDO ANALISE DO CONVENENTE'],
  ['41', 'BAIXA INDEFERIDA PELA RFB E DEFERIDA PELO CONVENENTE'], ['42', 'BAIXA DEFERIDA PELA RFB E SEFIN, AGUARDANDO ANALISE SEFAZ'],
  ['43', 'BAIXA DEFERIDA PELA RFB, AGUARDANDO ANALISE DA SEFAZ E INDEFERIDA PELA SEFIN'],
  ['44', 'BAIXA DEFERIDA PELA RFB E SEFAZ, AGUARDANDO ANALISE SEFIN'], ['45', 'BAIXA DEFERIDA PELA RFB, AGUARDANDO ANALISE DA SEFIN E INDEFERIDA PELA SEFAZ'],
  ['46', 'BAIXA DEFERIDA PELA RFB E SEFAZ E INDEFERIDA PELA SEFIN'], ['47', 'BAIXA DEFERIDA PELA RFB E SEFIN E INDEFERIDA PELA SEFAZ'],
  ['48', 'BAIXA INDEFERIDA PELA RFB, AGUARDANDO ANALISE SEFAZ E SEFIN'], ['49', 'BAIXA INDEFERIDA PELA RFB, AGUARDANDO ANALISE DA SEFAZ E DEFERIDA PELA SEFIN'],
  ['50', 'BAIXA INDEFERIDA PELA RFB E SEFAZ, AGUARDANDO ANALISE DA SEFIN'], ['51', 'BAIXA INDEFERIDA PELA RFB, DEFERIDA PELA SEFAZ E AGUARDANDO ANALISE DA SEFIN'],
  ['52', 'BAIXA INDEFERIDA PELA RFB E SEFAZ E DEFERIDA PELA SEFIN'], ['53', 'BAIXA INDEFERIDA PELA RFB E SEFIN E DEFERIDA PELA SEFAZ'],
  ['54', 'BAIXA - TRATAMENTO DIFERENCIADO DADO AS ME E EPP (LEI COMPLEMENTAR NUMERO 123/2006)'],
  ['55', 'DEFERIDO PELO CONVENENTE, AGUARDANDO ANALISE DA RFB'], ['60', 'ARTIGO 30, VI, DA IN 748/2007'],
  ['61', 'INDICIO INTERPOS. FRAUDULENTA'], ['62', 'FALTA DE PLURALIDADE DE SOCIOS'], ['63', 'OMISSAO DE DECLARACOES'],
  ['64', 'LOCALIZACAO DESCONHECIDA'], ['66', 'INAPTIDAO'], ['67', 'REGISTRO CANCELADO'],
  ['70', 'ANULACAO POR NAO CONFIRMADO ATO DE REGISTRO DO MEI NA JUNTA COMERCIAL'], ['71', 'INAPTIDAO (LEI 11.941/2009 ART.54)'],
  ['72', 'DETERMINACAO JUDICIAL'], ['73', 'OMISSAO CONTUMAZ'], ['74', 'INCONSISTENCIA CADASTRAL'], ['75', 'OBITO DO MEI - TITULAR FALECIDO'],
  ['80', 'BAIXA REGISTRADA NA JUNTA, INDEFERIDA NA RFB'], ['81', 'SOLICITACAO DA ADMINISTRACAO TRIBUTARIA MUNICIPAL/ESTADUAL'],
  ['82', 'SUSPENSO PERANTE A COMISSAO DE VALORES MOBILIARIOS - CVM'], ['93', 'CNPJ - TITULAR BAIXADO'],
];

// Country codes that tests and the generator use by number; the rest get free codes.
const FIXED_PAISES: ReadonlyArray<readonly [string, string]> = [
  ['000', 'COLIS POSTAUX'], ['013', 'AFEGANISTAO'], ['017', 'ALBANIA'], ['023', 'ALEMANHA'], ['037', 'ANDORRA'], ['040', 'ANGOLA'],
  ['063', 'ARGENTINA'], ['069', 'AUSTRALIA'], ['072', 'AUSTRIA'], ['087', 'BELGICA'], ['097', 'BOLIVIA'], ['105', 'BRASIL'],
  ['149', 'CANADA'], ['158', 'CHILE'], ['160', 'CHINA, REPUBLICA POPULAR'], ['169', 'COLOMBIA'], ['196', 'COSTA RICA'], ['199', 'CUBA'],
  ['232', 'DINAMARCA'], ['239', 'EQUADOR'], ['245', 'ESPANHA'], ['249', 'ESTADOS UNIDOS'], ['275', 'FRANCA'], ['301', 'GRECIA'],
  ['361', 'INDIA'], ['386', 'ITALIA'], ['399', 'JAPAO'], ['493', 'MEXICO'], ['545', 'PARAGUAI'], ['573', 'PAISES BAIXOS (HOLANDA)'],
  ['589', 'PERU'], ['607', 'PORTUGAL'], ['628', 'REINO UNIDO'], ['767', 'SUICA'], ['845', 'URUGUAI'], ['850', 'VENEZUELA'],
];

const OTHER_COUNTRIES = [
  'AFRICA DO SUL', 'ARABIA SAUDITA', 'ARGELIA', 'ARMENIA', 'ARUBA', 'AZERBAIJAO', 'BAHAMAS', 'BAHREIN', 'BANGLADESH', 'BARBADOS',
  'BELARUS', 'BELIZE', 'BENIN', 'BERMUDAS', 'BOSNIA-HERZEGOVINA', 'BOTSUANA', 'BRUNEI', 'BULGARIA', 'BURKINA FASO', 'BURUNDI',
  'BUTAO', 'CABO VERDE', 'CAMAROES', 'CAMBOJA', 'CATAR', 'CAZAQUISTAO', 'CHADE', 'CHIPRE', 'CINGAPURA', 'COMORES',
  'CONGO', 'COREIA, REPUBLICA DA', 'COREIA, REP.POP.DEMOC.', 'COSTA DO MARFIM', 'CROACIA', 'CURACAO', 'DJIBUTI', 'DOMINICA', 'EGITO', 'EL SALVADOR',
  'EMIRADOS ARABES UNIDOS', 'ERITREIA', 'ESLOVACA, REPUBLICA', 'ESLOVENIA', 'ESTONIA', 'ETIOPIA', 'FIJI', 'FILIPINAS', 'FINLANDIA', 'GABAO',
  'GAMBIA', 'GANA', 'GEORGIA', 'GIBRALTAR', 'GRANADA', 'GROENLANDIA', 'GUADALUPE', 'GUAM', 'GUATEMALA', 'GUERNSEY, ILHA DO CANAL',
  'GUIANA', 'GUIANA FRANCESA', 'GUINE', 'GUINE-BISSAU', 'GUINE-EQUATORIAL', 'HAITI', 'HONDURAS', 'HONG KONG', 'HUNGRIA', 'IEMEN',
  'ILHAS CAYMAN', 'ILHAS COOK', 'ILHAS FALKLAND (MALVINAS)', 'ILHAS FEROE', 'ILHAS MARSHALL', 'ILHAS SALOMAO', 'ILHAS VIRGENS (BRITANICAS)', 'ILHAS VIRGENS (E.U.A.)', 'INDONESIA', 'IRA, REPUBLICA ISLAMICA DO',
  'IRAQUE', 'IRLANDA', 'ISLANDIA', 'ISRAEL', 'JAMAICA', 'JERSEY, ILHA DO CANAL', 'JORDANIA', 'KIRIBATI', 'KUWEIT', 'LAOS, REP.POP.DEMOCR.DO',
  'LESOTO', 'LETONIA', 'LIBANO', 'LIBERIA', 'LIBIA', 'LIECHTENSTEIN', 'LITUANIA', 'LUXEMBURGO', 'MACAU', 'MACEDONIA DO NORTE',
  'MADAGASCAR', 'MALASIA', 'MALAVI', 'MALDIVAS', 'MALI', 'MALTA', 'MAN, ILHA DE', 'MARROCOS', 'MARTINICA', 'MAURICIO',
  'MAURITANIA', 'MAYOTTE', 'MIANMAR (BIRMANIA)', 'MICRONESIA', 'MOCAMBIQUE', 'MOLDAVIA, REPUBLICA DA', 'MONACO', 'MONGOLIA', 'MONTENEGRO', 'MONTSERRAT, ILHAS',
  'NAMIBIA', 'NAURU', 'NEPAL', 'NICARAGUA', 'NIGER', 'NIGERIA', 'NIUE, ILHA', 'NORUEGA', 'NOVA CALEDONIA', 'NOVA ZELANDIA',
  'OMA', 'PALAU', 'PALESTINA', 'PANAMA', 'PAPUA NOVA GUINE', 'PAQUISTAO', 'PITCAIRN, ILHA', 'POLINESIA FRANCESA', 'POLONIA, REPUBLICA DA', 'PORTO RICO',
  'QUENIA', 'QUIRGUIZ, REPUBLICA', 'REPUBLICA CENTRO-AFRICANA', 'REPUBLICA DOMINICANA', 'REUNIAO, ILHA', 'ROMENIA', 'RUANDA', 'RUSSIA, FEDERACAO DA', 'SAARA OCIDENTAL', 'SAMOA',
  'SAMOA AMERICANA', 'SAN MARINO', 'SANTA HELENA', 'SANTA LUCIA', 'SAO CRISTOVAO E NEVES', 'SAO TOME E PRINCIPE', 'SAO VICENTE E GRANADINAS', 'SENEGAL', 'SERRA LEOA', 'SERVIA',
  'SEYCHELLES', 'SIRIA, REPUBLICA ARABE DA', 'SOMALIA', 'SRI LANKA', 'SUAZILANDIA', 'SUDAO', 'SUDAO DO SUL', 'SUECIA', 'SURINAME', 'TADJIQUISTAO',
  'TAILANDIA', 'TAIWAN (FORMOSA)', 'TANZANIA, REP.UNIDA DA', 'TCHECA, REPUBLICA', 'TIMOR LESTE', 'TOGO', 'TONGA', 'TOQUELAU, ILHAS', 'TRINIDAD E TOBAGO', 'TUNISIA',
  'TURCAS E CAICOS, ILHAS', 'TURCOMENISTAO', 'TURQUIA', 'TUVALU', 'UCRANIA', 'UGANDA', 'UZBEQUISTAO', 'VANUATU', 'VATICANO, EST.DA CIDADE DO', 'VIETNA',
  'WALLIS E FUTUNA, ILHAS', 'ZAMBIA', 'ZIMBABUE', 'ANGUILLA', 'ANTIGUA E BARBUDA', 'ANTILHAS HOLANDESAS', 'BONAIRE', 'SINT MAARTEN', 'SAO MARTINHO, ILHA DE', 'CHRISTMAS, ILHA (NAVIDAD)',
  'COCOS (KEELING), ILHAS', 'MARIANAS DO NORTE', 'NORFOLK, ILHA', 'ALAND, ILHAS', 'BOUVET, ILHA', 'GEORGIA DO SUL E SANDWICH DO SUL', 'HEARD E ILHAS MCDONALD', 'TERRAS AUSTRAIS FRANCESAS', 'TERRITORIO BRIT. OCEANO INDICO', 'ILHAS MENORES DOS E.U.A.',
  'KOSOVO', 'SAO PEDRO E MIQUELON', 'SAO BARTOLOMEU', 'ZONA DO CANAL DO PANAMA', 'BANCO CENTRAL DO BRASIL (PROVISORIO)', 'ORGANISMOS INTERNACIONAIS', 'PROVISAO DE NAVIOS E AERONAVES', 'A DESIGNAR', 'ILHAS CANARIAS', 'MADEIRA, ILHA DA',
  'ACORES, ILHAS DOS', 'LABUAN', 'DUBAI', 'JOHNSTON, ILHAS', 'WAKE, ILHA', 'MIDWAY, ILHAS', 'CAMPIONE D ITALIA', 'ESCOCIA', 'PAIS DE GALES', 'IRLANDA DO NORTE',
];

/** Country codes seen in the data but missing from Paises (minha-receita's list); never assigned. */
export const ORPHAN_PAISES = ['015', '150', '151', '200', '321', '359', '367', '393', '449', '452', '498', '578', '678', '699', '737', '994'];

// Municipality counts per UF (IBGE); 5,570 in all, plus EXTERIOR and one newer code below.
export const UF_MUNICIPIOS: ReadonlyArray<readonly [string, number, number]> = [
  // uf, number of municipalities, share of establishments (≈ population share, %)
  ['RO', 52, 0.9], ['AC', 22, 0.4], ['AM', 62, 1.8], ['RR', 15, 0.3], ['PA', 144, 3.6], ['AP', 16, 0.4], ['TO', 139, 0.8],
  ['MA', 217, 2.6], ['PI', 224, 1.5], ['CE', 184, 4.1], ['RN', 167, 1.6], ['PB', 223, 1.9], ['PE', 184, 4.4], ['AL', 102, 1.5],
  ['SE', 75, 1.1], ['BA', 417, 6.5], ['MG', 853, 10.6], ['ES', 78, 2.0], ['RJ', 92, 8.2], ['SP', 645, 23.0], ['PR', 399, 6.2],
  ['SC', 295, 4.3], ['RS', 497, 5.8], ['MS', 79, 1.4], ['MT', 141, 1.8], ['GO', 246, 3.5], ['DF', 1, 1.8],
];

// SIAFI code blocks per UF (approximate real layout: 0001.. RO, 0101.. AC, …).
const UF_CODE_START: Record<string, number> = {
  RO: 1, AC: 101, AM: 201, RR: 301, PA: 401, AP: 601, MA: 701, PI: 1001, CE: 1301, RN: 1601, PB: 1901, PE: 2301,
  AL: 2701, SE: 3101, BA: 3301, MG: 4001, ES: 5601, RJ: 5801, SP: 6101, PR: 7401, SC: 8001, RS: 8501, MS: 9001,
  MT: 8901, GO: 9201, TO: 9501, DF: 9701,
};

// Real SIAFI codes of large cities; the first of each UF in this list gets most of its weight.
const BIG_CITIES: ReadonlyArray<readonly [string, string, string, number]> = [
  ['7107', 'SAO PAULO', 'SP', 30], ['6001', 'RIO DE JANEIRO', 'RJ', 40], ['9701', 'BRASILIA', 'DF', 100],
  ['4123', 'BELO HORIZONTE', 'MG', 12], ['3849', 'SALVADOR', 'BA', 20], ['1389', 'FORTALEZA', 'CE', 30],
  ['7535', 'CURITIBA', 'PR', 18], ['0255', 'MANAUS', 'AM', 55], ['2531', 'RECIFE', 'PE', 18], ['8801', 'PORTO ALEGRE', 'RS', 15],
  ['9373', 'GOIANIA', 'GO', 22], ['0427', 'BELEM', 'PA', 18], ['6477', 'GUARULHOS', 'SP', 3], ['6291', 'CAMPINAS', 'SP', 3],
  ['0001', 'GUAJARA-MIRIM', 'RO', 2], ['1182', 'BOA ESPERANCA DO NORTE', 'MT', 0.2],
];

const SYLLABLES = new Set(['ITA', 'IPI', 'CARA', 'GUARA', 'PIRA', 'JACA', 'TAQUA', 'CURI', 'ARA', 'ITAPI', 'TINGA', 'PUAN', 'JUBA', 'TUBA', 'POLIS', 'NDIA', 'RANA', 'CICA', 'BAIA', 'MIRIM']);

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function buildCnaes(rng: Rng): { rows: Row2[]; picker: Weighted<string> } {
  const rows: Row2[] = REAL_CNAES.map(([code, desc]) => ({ code, desc }));
  const used = new Set(rows.map((r) => r.code));
  const weights: Array<[string, number]> = REAL_CNAES.map(([code, , w]) => [code, w]);
  const target = 1350;
  const divisions = Object.keys(DIVISIONS);
  const perDivision = Math.ceil((target - rows.length) / divisions.length);
  for (const div of divisions) {
    const [verb, objects] = DIVISIONS[div];
    let made = 0;
    for (let k = 0; made < perDivision && k < perDivision * 4; k++) {
      const object = objects[k % objects.length];
      const qualifier = k < objects.length ? '' : rng.pick(CNAE_QUALIFIERS);
      // group and class digits, a class check digit, then the subclass
      const sub = k < objects.length ? (rng.chance(0.6) ? '00' : pad(rng.range(1, 5), 2)) : rng.chance(0.15) ? '99' : pad(rng.range(1, 9), 2);
      const code = `${div}${rng.range(1, 9)}${rng.int(10)}${rng.int(10)}${sub}`;
      if (used.has(code)) continue;
      used.add(code);
      rows.push({ code, desc: `${verb} ${object}${qualifier}` });
      // Commerce, food and services are by far the most common principal activities.
      const w = ['47', '56', '96', '43', '82', '49', '45', '85', '86', '94'].includes(div) ? 1.2 : 0.15;
      weights.push([code, w]);
      made++;
      if (rows.length >= target) break;
    }
    if (rows.length >= target) break;
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { rows, picker: new Weighted(weights) };
}

function buildMunicipios(rng: Rng): { rows: Municipio[]; pickers: Map<string, Weighted<Municipio>> } {
  const rows: Municipio[] = [];
  const usedCodes = new Set<string>();
  const usedNames = new Set<string>();
  const pickers = new Map<string, Weighted<Municipio>>();
  for (const [, , name] of BIG_CITIES) usedNames.add(name);
  // Codes are handed out in SIAFI block order, each UF starting at its block when there is
  // room; steps of 1–2 keep all 5,5xx codes within four digits.
  const order = [...UF_MUNICIPIOS].sort((a, b) => UF_CODE_START[a[0]] - UF_CODE_START[b[0]]);
  let remaining = order.reduce((s, u) => s + u[1], 0);
  let code = 1;
  for (const [uf, count] of order) {
    const mine: Array<[Municipio, number]> = [];
    for (const [bigCode, name, cuf, w] of BIG_CITIES) {
      if (cuf !== uf) continue;
      const m = { code: bigCode, desc: name, uf };
      rows.push(m);
      usedCodes.add(bigCode);
      mine.push([m, w]);
    }
    remaining -= mine.length;
    const start = UF_CODE_START[uf];
    if (start > code && 9990 - start > remaining * 1.6) code = start;
    while (mine.length < count) {
      while (usedCodes.has(pad(code, 4)) || code === 9707) code++;
      let name = '';
      for (let tries = 0; tries < 50; tries++) {
        // Tupi-like syllables glue together (ITAPIRANA); everything else is spaced (NOVA ALEGRE).
        const head = rng.pick(PLACE_HEADS);
        const tail = rng.pick(PLACE_TAILS);
        name = SYLLABLES.has(head) && SYLLABLES.has(tail) ? head + tail : `${head} ${tail}`;
        if (!usedNames.has(name)) break;
        name = `${name} ${rng.pick(['I', 'II', 'DE MINAS', 'PAULISTA', 'DO ' + uf])}`;
        if (!usedNames.has(name)) break;
      }
      usedNames.add(name);
      const m = { code: pad(code, 4), desc: name, uf };
      usedCodes.add(m.code);
      rows.push(m);
      remaining--;
      // Skewed city sizes: a few medium towns, many small ones.
      mine.push([m, rng.chance(0.05) ? 3 : 0.3 + rng.next()]);
      code += rng.chance(0.6) ? 2 : 1;
    }
    if (code > 9999) throw new Error('municipality codes overflowed four digits');
    pickers.set(uf, new Weighted(mine));
  }
  const exterior = { code: '9707', desc: 'EXTERIOR', uf: 'EX' };
  rows.push(exterior);
  pickers.set('EX', new Weighted([[exterior, 1]]));
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { rows, pickers };
}

function buildPaises(): Row2[] {
  const rows: Row2[] = FIXED_PAISES.map(([code, desc]) => ({ code, desc }));
  const used = new Set([...rows.map((r) => r.code), ...ORPHAN_PAISES]);
  let next = 5;
  for (const desc of OTHER_COUNTRIES) {
    if (rows.length >= 255) break;
    while (used.has(pad(next, 3))) next++;
    used.add(pad(next, 3));
    rows.push({ code: pad(next, 3), desc });
    next += 3;
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return rows;
}

let cached: Lookups | null = null;

export function buildLookups(): Lookups {
  if (cached) return cached;
  const rng = new Rng(LOOKUP_SEED, 99);
  const { rows: cnaes, picker } = buildCnaes(rng);
  const { rows: municipios, pickers } = buildMunicipios(rng);
  const toRows = (t: ReadonlyArray<readonly [string, string]>) => t.map(([code, desc]) => ({ code, desc }));
  cached = {
    cnaes,
    motivos: toRows(MOTIVOS),
    municipios,
    naturezas: toRows(NATUREZAS),
    paises: buildPaises(),
    qualificacoes: toRows(QUALIFICACOES),
    cnaePicker: picker,
    municipioPickers: pickers,
  };
  for (const table of [cached.cnaes, cached.motivos, cached.municipios, cached.naturezas, cached.paises, cached.qualificacoes]) {
    for (const r of table) {
      // Latin-1 output: a character above U+00FF would be silently mangled.
      if (/[^\x00-\xff]/.test(r.desc)) throw new Error(`non-Latin-1 description for ${r.code}: ${r.desc}`);
    }
  }
  return cached;
}
