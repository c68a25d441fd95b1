// Where the dumps come from: the official Nextcloud shares (WebDAV) or a plain HTTP mirror.
// One URL string carries everything; a share token rides in the URL's user name, the way
// Nextcloud's public WebDAV expects it (basic auth, user = token, empty password).

export const RECEITA_WEBDAV_URL = 'https://arquivos.receitafederal.gov.br/public.php/webdav/';
export const RECEITA_MONTHLY_TOKEN = 'YggdBLfdninEJX9';
export const RECEITA_REGIME_TOKEN = 'MPPfFit7g7zdA8C';

function withToken(url: string, token: string): string {
  const u = new URL(url);
  u.username = token;
  return u.href;
}

/** Defaults; `CNPJ_API_SOURCE` / `CNPJ_API_REGIME_SOURCE` override them (the token may change: docs/update.md). */
export const DEFAULT_SOURCE = withToken(RECEITA_WEBDAV_URL, RECEITA_MONTHLY_TOKEN);
export const DEFAULT_REGIME_SOURCE = withToken(RECEITA_WEBDAV_URL, RECEITA_REGIME_TOKEN);

export function defaultSource(env: NodeJS.ProcessEnv = process.env): string {
  return env.CNPJ_API_SOURCE || DEFAULT_SOURCE;
}
export function defaultRegimeSource(env: NodeJS.ProcessEnv = process.env): string {
  return env.CNPJ_API_REGIME_SOURCE || DEFAULT_REGIME_SOURCE;
}

export interface Source {
  kind: 'webdav' | 'http';
  /** Folder URL ending in '/', without credentials. */
  url: string;
  /** `Authorization` header value, when the source needs one. */
  auth?: string;
}

function basic(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
}

/**
 * Accepted forms:
 * - `https://TOKEN@host/public.php/webdav/[folder/]`: a Nextcloud public share over WebDAV;
 * - `https://host/index.php/s/TOKEN`: the share's web page, turned into the above;
 * - `https://host/public.php/dav/files/TOKEN/`: token in the path, no auth needed;
 * - `webdav+https://[user:pass@]host/path/`: any other WebDAV folder;
 * - any other `http(s)://` URL: a folder with an autoindex HTML page (user:pass → basic auth).
 */
export function parseSource(spec: string): Source {
  let forced: 'webdav' | undefined;
  let s = spec.trim();
  if (/^webdav\+https?:\/\//i.test(s)) {
    forced = 'webdav';
    s = s.slice('webdav+'.length);
  }
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`The source "${spec}" is not a valid http(s) URL.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`The source "${spec}" is not an http(s) URL.`);
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';

  const share = /^(.*?)\/index\.php\/s\/([A-Za-z0-9]+)\/?$/.exec(u.pathname);
  if (share) {
    u.pathname = `${share[1]}/public.php/webdav/`;
    return { kind: 'webdav', url: u.href, auth: basic(share[2], '') };
  }
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  if (forced || /\/public\.php\/(webdav|dav)\//.test(u.pathname)) {
    if (/\/public\.php\/webdav\//.test(u.pathname) && !user) {
      throw new Error(
        `The WebDAV source ${u.href} needs the share token as the URL's user name, e.g. https://TOKEN@${u.host}${u.pathname}.`,
      );
    }
    return { kind: 'webdav', url: u.href, auth: user ? basic(user, password) : undefined };
  }
  return { kind: 'http', url: u.href, auth: user ? basic(user, password) : undefined };
}

/** The four regime files, by a normalised key, and the names the importer expects. */
export const REGIME_FILES: Record<string, string> = {
  'lucro real': 'Lucro Real.zip',
  'lucro presumido': 'Lucro Presumido.zip',
  'lucro arbitrado': 'Lucro Arbitrado.zip',
  'imunes e isentas': 'Imunes e Isentas.zip',
};

/** `entidades-lucro-real.zip` (2026 share) and `Lucro Real.zip` (2025 folder) both → `Lucro Real.zip`. */
export function regimeLocalName(remoteName: string): string | undefined {
  if (!/\.zip$/i.test(remoteName)) return undefined;
  const key = remoteName
    .replace(/\.zip$/i, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^entidades[-_ ]+/, '')
    .replace(/[-_\s]+/g, ' ')
    .trim();
  return REGIME_FILES[key];
}
