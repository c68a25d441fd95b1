// The favicon: the brand mark of the top bar (a "C" on the brand green), as a small SVG.
import crypto from 'node:crypto';

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5d43"/><path d="M21.5 10.6A8 8 0 1 0 21.5 21.4" fill="none" stroke="#fff" stroke-width="4.2" stroke-linecap="round"/></svg>
`;

export const FAVICON_PATH = `/static/favicon-${crypto.createHash('sha256').update(FAVICON_SVG).digest('hex').slice(0, 10)}.svg`;
