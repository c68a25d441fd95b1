// The program's version, from package.json (bundled into the standalone binary as well).
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
