// Lint for the whole workspace: typescript-eslint's recommended rules, with the
// few exceptions this code base has a reason for, said beside each.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'docs/api/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } } },
  // Pages, page scripts and the browser suite's fixtures run in a browser.
  { files: ['examples/browser/**/*.js', 'test/browser/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // CommonJS files load with require(), which is what they are for.
  { files: ['**/*.cjs', '**/*.cts'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    // Polynomial coefficients and table values are printed with more digits than
    // a double holds, as the minimax and mpmath tools give them: the literal
    // rounds to the double meant, and the extra digits say where it came from.
    files: ['packages/kernels-wasm/src/math/**/*.ts', 'packages/deferred-array/src/reference/*.test.ts'],
    rules: { 'no-loss-of-precision': 'off' },
  },
  // A leading underscore marks what a destructuring or a signature skips on purpose.
  { rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] } },
);
