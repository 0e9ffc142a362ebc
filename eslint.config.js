import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

// npm run lint (part of npm test): the recommended JavaScript, TypeScript and Svelte rules, no
// unused code anywhere.
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'public/', '.svelte-check/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig } },
  },
  // Scripts the browser tests run inside workers.
  { files: ['tests/browser/pages/*-worker.js'], languageOptions: { globals: globals.worker } },
  // Tests read JSON files and assert their shape; `any` there is the honest type.
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Browser tests read the page's words as the browser shows them (tests/browser/page-text.ts), so that
  // rewrapping markup changes no test; raw text only where whitespace shows (a <pre>), through preText.
  {
    files: ['tests/browser/**/*.ts', 'tests/bench/**/*.ts'],
    ignores: ['tests/browser/page-text.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(textContent|allTextContents)$/]',
          message:
            'Read page words with shownText/shownTexts (tests/browser/page-text.ts): textContent keeps markup line breaks.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^getBy(Text|Label)$/] > Literal[regex]',
          message:
            'Wrap the pattern in shownPattern (tests/browser/page-text.ts): Playwright tests a RegExp against the raw text.',
        },
        {
          selector: 'Property[key.name="hasText"] > Literal[regex]',
          message:
            'Wrap the pattern in shownPattern (tests/browser/page-text.ts): Playwright tests a RegExp against the raw text.',
        },
      ],
    },
  },
);
