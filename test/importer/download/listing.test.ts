import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { monthsOf, parseAutoindex, parseMultistatus } from '../../../importer/download/listing.ts';
import { parseSource, regimeLocalName } from '../../../importer/download/servers.ts';
import { autoindexHtml } from './server.ts';

describe('parseMultistatus', () => {
  it('reads hrefs, folders and sizes from a Nextcloud answer, skipping the folder itself', () => {
    const xml = `<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns">
 <d:response><d:href>/public.php/webdav/2026-09/</d:href>
  <d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
  <d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
 </d:response>
 <d:response><d:href>/public.php/webdav/2026-09/Empresas0.zip</d:href>
  <d:propstat><d:prop><d:resourcetype/><d:getcontentlength>341234567</d:getcontentlength></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
 </d:response>
 <d:response><d:href>/public.php/webdav/2026-09/Lucro%20Real.zip</d:href>
  <d:propstat><d:prop><d:getcontentlength>12</d:getcontentlength><d:resourcetype/></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
 </d:response>
</d:multistatus>`;
    const entries = parseMultistatus(xml, 'https://h.example/public.php/webdav/2026-09/');
    assert.deepEqual(entries, [
      {
        name: 'Empresas0.zip',
        url: 'https://h.example/public.php/webdav/2026-09/Empresas0.zip',
        isDir: false,
        size: 341234567,
      },
      {
        name: 'Lucro Real.zip',
        url: 'https://h.example/public.php/webdav/2026-09/Lucro%20Real.zip',
        isDir: false,
        size: 12,
      },
    ]);
  });

  it('copes with other prefixes, a default namespace, absolute hrefs and entities', () => {
    const xml = `<multistatus xmlns="DAV:"><response><href>https://h.example/dav/</href><propstat><prop><resourcetype><collection /></resourcetype></prop></propstat></response>
<response><href>https://h.example/dav/2026-08</href><propstat><prop><resourcetype><collection/></resourcetype></prop></propstat></response>
<response><href>/dav/a&amp;b.zip</href><propstat><prop><getcontentlength >7</getcontentlength></prop></propstat></response></multistatus>
<D:multistatus xmlns:D="DAV:"><D:response><D:href>/dav/2026-07/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop></D:propstat></D:response></D:multistatus>`;
    const entries = parseMultistatus(xml, 'https://h.example/dav/');
    assert.deepEqual(
      entries.map((e) => [e.name, e.isDir, e.size, e.url]),
      [
        ['2026-08', true, undefined, 'https://h.example/dav/2026-08/'],
        ['a&b.zip', false, 7, 'https://h.example/dav/a&b.zip'],
        ['2026-07', true, undefined, 'https://h.example/dav/2026-07/'],
      ],
    );
  });
});

describe('parseAutoindex', () => {
  const kids = ['2024-06/', '2026-07/', '2026-08/', 'temp/', 'Lucro Real.zip', 'notes.txt'];
  for (const style of ['apache', 'python', 'nginx'] as const) {
    it(`lists the children of a ${style} page and ignores sort/parent links`, () => {
      const entries = parseAutoindex(autoindexHtml(style, '/mirror/', kids), 'http://127.0.0.1:1/mirror/');
      assert.deepEqual(
        entries.map((e) => `${e.name}${e.isDir ? '/' : ''}`),
        kids,
      );
      assert.equal(entries.find((e) => e.name === 'Lucro Real.zip')?.url, 'http://127.0.0.1:1/mirror/Lucro%20Real.zip');
      assert.deepEqual(monthsOf(entries), ['2024-06', '2026-07', '2026-08']);
    });
  }

  it('accepts absolute-path hrefs and drops links elsewhere', () => {
    const html = `<a href="/mirror/2026-08/">x</a><a href='/other/2026-09/'>y</a><a href=http://evil.example/mirror/2026-10/>z</a>
      <a href="mailto:a@b">m</a><a href="2026-08/Empresas0.zip">deep</a><A HREF="Cnaes.zip">c</A>`;
    assert.deepEqual(
      parseAutoindex(html, 'http://127.0.0.1:1/mirror').map((e) => e.name),
      ['2026-08', 'Cnaes.zip'],
    );
  });
});

describe('monthsOf', () => {
  it('keeps only YYYY-MM folders, sorted', () => {
    const e = (name: string, isDir = true) => ({ name, url: '', isDir });
    assert.deepEqual(
      monthsOf([e('2026-09'), e('2025-13'), e('2026-10', false), e('2024-01'), e('2026-9'), e('dicionarios')]),
      ['2024-01', '2026-09'],
    );
  });
});

describe('parseSource', () => {
  const basic = (t: string) => 'Basic ' + Buffer.from(`${t}:`).toString('base64');
  it('takes the share token from the URL user name', () => {
    assert.deepEqual(parseSource('https://TOK123@h.example/public.php/webdav'), {
      kind: 'webdav',
      url: 'https://h.example/public.php/webdav/',
      auth: basic('TOK123'),
    });
  });
  it('turns a share web link into the WebDAV endpoint', () => {
    assert.deepEqual(parseSource('https://h.example/index.php/s/YggdBLfdninEJX9'), {
      kind: 'webdav',
      url: 'https://h.example/public.php/webdav/',
      auth: basic('YggdBLfdninEJX9'),
    });
  });
  it('asks for the token when a webdav share URL has none', () => {
    assert.throws(() => parseSource('https://h.example/public.php/webdav/'), /share token/);
  });
  it('treats other URLs as autoindex mirrors, webdav+ as WebDAV', () => {
    assert.equal(parseSource('http://127.0.0.1:8000/cnpj').kind, 'http');
    assert.equal(parseSource('http://127.0.0.1:8000/cnpj').url, 'http://127.0.0.1:8000/cnpj/');
    assert.equal(parseSource('webdav+http://127.0.0.1:8000/dav/').kind, 'webdav');
    assert.throws(() => parseSource('ftp://x/'), /not an http/);
  });
});

describe('regimeLocalName', () => {
  it('maps the 2026 share names and the older names to what the importer expects', () => {
    assert.equal(regimeLocalName('entidades-lucro-real.zip'), 'Lucro Real.zip');
    assert.equal(regimeLocalName('entidades-lucro-presumido.zip'), 'Lucro Presumido.zip');
    assert.equal(regimeLocalName('entidades-lucro-arbitrado.zip'), 'Lucro Arbitrado.zip');
    assert.equal(regimeLocalName('entidades-imunes-e-isentas.zip'), 'Imunes e Isentas.zip');
    assert.equal(regimeLocalName('Imunes e Isentas.zip'), 'Imunes e Isentas.zip');
    assert.equal(regimeLocalName('renuncia-irpj-csll-ecf.csv'), undefined);
    assert.equal(regimeLocalName('Dicionário de Dados.zip'), undefined);
  });
});
