// The layering of src/, checked by `npm run lint:layers` (and .ci/run, before the tests).
//
//   cli  →  server | importer | demo  →  domain  →  storage  →  lib
//
// A layer imports anything below it and nothing above it; the three programs in the middle do not
// import each other (the CLI composes them); nothing imports in a cycle, neither files nor folders.
// scripts/ (developer tools) may import src/; src/ never imports scripts/ or test/.
// Type-only imports count too (tsPreCompilationDeps): a type is a dependency of the design.

/** Bottom to top; `path` matches the folders of the layer under src/. */
const LAYERS = [
  { name: 'lib', path: 'lib' },
  { name: 'storage', path: 'storage' },
  { name: 'domain', path: 'domain' },
  { name: 'programs', path: 'server|importer|demo' },
  { name: 'cli', path: 'cli' },
];

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => {
  const above = LAYERS.slice(i + 1).map((l) => l.path);
  return {
    name: `${layer.name}-imports-upward`,
    comment: `src/(${layer.path})/ must not import the layers above it: ${above.join(', ')}.`,
    severity: 'error',
    from: { path: `^src/(${layer.path})/` },
    to: { path: `^src/(${above.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules must not depend on each other in a cycle.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      // dependency-cruiser counts a folder as containing its subfolders: a parent using its own
      // subfolder (cli/main.ts → cli/commands/) is no folder dependency, so only real ones count.
      comment: 'Folders must not depend on each other in a cycle (e.g. domain/registry ↔ domain/company).',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'programs-import-each-other',
      comment: 'server, importer and demo are separate programs: the CLI composes them, they do not import each other.',
      severity: 'error',
      from: { path: '^src/(server|importer|demo)/' },
      to: { path: '^src/(server|importer|demo)/', pathNot: '^src/$1/' },
    },
    {
      name: 'src-imports-tools-or-tests',
      comment: 'Product code must not import developer tools (scripts/) or tests (test/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/' },
    },
    {
      name: 'not-in-a-layer',
      comment: 'Every module of src/ lives in one of the layer folders (cli, server, importer, demo, domain, storage, lib).',
      severity: 'error',
      from: {},
      to: { path: '^src/(?!(cli|server|importer|demo|domain|storage|lib)/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that cannot be resolved would hide the dependency from these rules.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Packages' "exports" maps (csv-parse/sync, tsx/esm/api), resolved as Node resolves them.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    exclude: { path: '^test/fixtures/' },
  },
};
