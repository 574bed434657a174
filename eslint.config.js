import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(fileURLToPath(import.meta.url));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'var/',
      'dist/',
      'admin-ui/dist/',
      'client/dist/',
      'openapi/generated/',
      'bench/results/',
      'test-results/',
      'test/spec/fixtures/',
    ],
  },
  // Type-aware: the rules see what the compiler sees (a floating promise, an `any` leaking out of a parsed body).
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Test doubles implement asynchronous interfaces (a data provider, a store) with values at hand, so an `async`
    // without `await` is the clearest way to write them there.
    files: ['**/*.test.{ts,tsx}', 'test/**/*.ts', 'admin-ui/src/test/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['admin-ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // A console file a reader can hold: past 250 lines, its screen state belongs in a hook or its parts in files of
    // their own. Tests keep their flows together.
    files: ['admin-ui/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'admin-ui/src/test/**'],
    rules: { 'max-lines': ['error', { max: 250 }] },
  },
  {
    // Plain JavaScript (configs, Dredd hooks) has no types to check.
    files: ['**/*.{js,cjs,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
