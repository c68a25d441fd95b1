// The layering of the product, checked by `npm run lint:layers` (and .ci/run, before the tests).
//
//   src/cli  →  src/server | importer/ | src/demo  →  src/domain  →  src/storage  →  src/lib
//
// The importer is a program of its own at the top of the repository, beside src/ (the design's
// layout); the other layers live under src/. A layer imports anything below it and nothing above
// it; the three programs in the middle do not import each other (the CLI composes them); nothing
// imports in a cycle, neither files nor folders. scripts/ (developer tools) may import the
// product; the product never imports scripts/ or test/.
// Type-only imports count too (tsPreCompilationDeps): a type is a dependency of the design.

/** Bottom to top; `path` matches the folders of the layer, from the repository's root. */
const LAYERS = [
  { name: 'lib', path: 'src/lib' },
  { name: 'storage', path: 'src/storage' },
  { name: 'domain', path: 'src/domain' },
  { name: 'programs', path: 'src/server|importer|src/demo' },
  { name: 'cli', path: 'src/cli' },
];

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => {
  const above = LAYERS.slice(i + 1).map((l) => l.path);
  return {
    name: `${layer.name}-imports-upward`,
    comment: `${layer.path} must not import the layers above it: ${above.join(', ')}.`,
    severity: 'error',
    from: { path: `^(${layer.path})/` },
    to: { path: `^(${above.join('|')})/` },
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
      from: { path: '^(src/server|importer|src/demo)/' },
      to: { path: '^(src/server|importer|src/demo)/', pathNot: '^$1/' },
    },
    {
      name: 'src-imports-tools-or-tests',
      comment: 'Product code must not import developer tools (scripts/) or tests (test/).',
      severity: 'error',
      from: { path: '^(src|importer)/' },
      to: { path: '^(scripts|test)/' },
    },
    {
      name: 'not-in-a-layer',
      comment:
        'Every module of src/ lives in one of the layer folders (cli, server, demo, domain, storage, lib); the importer is importer/.',
      severity: 'error',
      from: {},
      to: { path: '^src/(?!(cli|server|demo|domain|storage|lib)/)' },
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
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    exclude: { path: '^test/fixtures/' },
  },
};
