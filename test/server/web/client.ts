// A tiny cookie-keeping HTTP client for page tests without a browser.
import { Agent, fetch } from 'undici';

export interface WebClientOptions {
  /** Source address of the connections (any 127.x.y.z on Linux loopback): another client address. */
  localAddress?: string;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  private readonly dispatcher: Agent | undefined;
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
    opts: WebClientOptions = {},
  ) {
    this.dispatcher = opts.localAddress ? new Agent({ localAddress: opts.localAddress }) : undefined;
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    const h: Record<string, string> = { ...this.headers, ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) h['content-type'] = 'application/x-www-form-urlencoded';
    const r = await fetch(this.base + path, {
      method,
      headers: h,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: 'manual',
      dispatcher: this.dispatcher,
    });
    for (const c of r.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (attrs.some((a) => a.trim() === 'Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1));
    }
    return r;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>) {
    return this.request('POST', path, form, headers);
  }

  /** The CSRF token of the first form on a page. */
  async csrf(path: string): Promise<string> {
    const html = await (await this.get(path)).text();
    const m = /name="csrf_token" value="([^"]+)"/.exec(html);
    if (!m) throw new Error(`no csrf field on ${path}`);
    return m[1]!;
  }

  async login(email: string, password: string) {
    const csrf_token = await this.csrf('/login');
    return this.post('/login', { csrf_token, email, senha: password });
  }
}
