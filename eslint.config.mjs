// The house's rules a machine can check (issue 38 item 5): a small set the code already keeps,
// so a change that breaks one is seen in CI (`npm run lint`, run by the test command).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
// jsx-a11y's own package declares no ESLint 10 peer (npm refuses it with ERESOLVE); this fork
// carries the same rules under the prefix jsx-a11y-x/ and runs on ESLint 10.
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

const CONSOLE = ['console/src/**/*.ts', 'console/src/**/*.tsx'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'console/dist/**', 'drizzle/**', 'drizzle-pg/**', 'test-results/**', '**/*.cjs', '**/*.mjs', '**/*.js'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its error: a call's write or a text's send fails silently.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'require-yield': 'error',
    },
  },
  {
    // Doubles and harnesses read engines' loose JSON; the product's code may not.
    files: ['test/**', 'bench/**', 'eval/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // React's own rules for the console: hooks called in the same order every render, with the
    // dependencies they read; and markup a keyboard or a screen reader can use.
    files: CONSOLE,
    ...reactHooks.configs.flat.recommended,
  },
  { files: CONSOLE, ...jsxA11y.configs.recommended },
  {
    // The recommended sets leave some rules at "warn", which `npm run lint` lets through.
    files: CONSOLE,
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/incompatible-library': 'error',
      'react-hooks/unsupported-syntax': 'error',
    },
  },
);
