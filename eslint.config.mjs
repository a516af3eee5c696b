// The house's rules a machine can check (issue 38 item 5): a small set the code already keeps,
// so a change that breaks one is seen in CI (`npm run lint`, run by the test command).
import tseslint from 'typescript-eslint';

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
);
