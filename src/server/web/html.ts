// Escaping HTML by construction: `html` escapes every interpolated value unless it is already Html.
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Trusted markup (our own constants only). */
export function raw(s: string): Html {
  return new Html(s);
}

/**
 * Text that may wrap after a "/" and nowhere else (a command or URL on a narrow screen): a URL
 * breaks between its segments, never inside one (a CNPJ, a host name). `<wbr>` adds no character,
 * so copying the text gives it back unchanged.
 */
export function breakAfterSlashes(s: string): Html {
  return new Html(
    s
      .split(/(?<=\/)(?!\/)/)
      .map(escapeHtml)
      .join('<wbr>'),
  );
}
