import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Each folder under src/features is one page area. Features do not import each other (what two
// of them show lives in src/components, src/viewer or src/lib), and nothing shared imports a feature,
// so a feature can change or go without touching another: the zones bulletproof-react draws with
// import/no-restricted-paths, here with the core rule (imports are relative, so a feature's name
// after `../` or `features/` is the crossing).
const features = readdirSync(new URL('src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const importsOf = (names) => `(^|/)(features|\\.\\.)/(${names.join('|')})/`;
const featureBoundaries = features.map((feature) => ({
  files: [`src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: importsOf(features.filter((other) => other !== feature)),
            message:
              'A feature does not import another feature: move what both use to src/components, src/viewer or src/lib.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist', 'build', 'data', 'node_modules', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The store is async (SQLite or Postgres): a promise left unawaited on the server is a check
    // that never ran or a write whose failure nobody sees, so the type-aware promise rules guard it.
    files: ['server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, properties: false } },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...featureBoundaries,
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/features/**', 'src/app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features/',
              message: 'Shared code does not import a feature; only src/app (the router) does.',
            },
          ],
        },
      ],
    },
  },
);
