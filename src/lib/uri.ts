// Percent-decoding of text that comes from outside (request paths and queries, server listings).

/** decodeURIComponent, or the text unchanged when it is not valid percent-encoding. */
export function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
