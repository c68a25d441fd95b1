// The linter: typescript-eslint's recommended rules, and with type information the rules that catch
// the async mistakes a server and its database code invite: a promise nobody awaits or catches
// (no-floating-promises), a promise handed where a void callback is expected, e.g. an async
// listener (no-misused-promises), and `await` on something that is not a promise
// (await-thenable). Formatting is prettier's (eslint-config-prettier turns off what overlaps).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'test/fixtures/', 'data/', 'dist/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Matching control characters is the point of several expressions (NULs in the dump, names
      // escaped before they reach a terminal or a log line).
      'no-control-regex': 'off',
      // `_` marks a binding kept for its position (a destructured tuple, a callback's first argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON answers and the browser's DOM globals, whose shapes the Node types lack.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript (bin/, the configs): Node's globals, no type information.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly' } },
  },
  prettier,
);
