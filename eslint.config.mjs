// Lint: typescript-eslint's recommended rules everywhere, documentation of
// everything lib/ exports (eslint-plugin-jsdoc), formatting left to Prettier.
import jsdoc from 'eslint-plugin-jsdoc';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist-cdktn/**',
      'dist-packages/**',
      'dist-pacmak/**',
      'cdktf.out/**',
      'coverage/**',
      '**/*.d.ts',
      'lib/**/*.js',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Terraform JSON and cdktf's rendering hooks are untyped by nature; `any` is allowed where it is written.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', 'scripts/**', 'jest.config.js', 'test/support/summary-reporter.js', 'bench/workers/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
  },
  {
    files: ['test/**', 'bench/**', 'examples/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  {
    // The public API: every exported type, and every public member of an exported class, is documented.
    files: ['lib/**/*.ts'],
    plugins: { jsdoc },
    settings: { jsdoc: { mode: 'typescript' } },
    rules: {
      'jsdoc/require-jsdoc': [
        'error',
        {
          publicOnly: true,
          require: { ClassDeclaration: true, FunctionDeclaration: true },
          contexts: [
            'TSInterfaceDeclaration',
            'TSEnumDeclaration',
            'TSTypeAliasDeclaration',
            'ClassBody > MethodDefinition[accessibility!="private"][kind!="constructor"]',
            'ClassBody > PropertyDefinition[accessibility="public"]',
          ],
        },
      ],
      // exampleMetadata: the fixture jsii-rosetta compiles an @example in (rosetta/*.ts-fixture).
      'jsdoc/check-tag-names': ['error', { definedTags: ['default', 'internal', 'stability', 'subclassable', 'jsii', 'exampleMetadata'] }],
      // jsii copies doc comments into every language's code as they are: a TSDoc link would stay `{@link X}` there.
      'jsdoc/no-restricted-syntax': [
        'error',
        {
          contexts: [
            {
              comment: 'JsdocBlock:has(JsdocInlineTag)',
              context: 'any',
              message: 'no inline TSDoc tag ({@link X}): jsii copies it into the Python, Java, C# and Go docs as written; write `X`',
            },
          ],
        },
      ],
      'jsdoc/no-multi-asterisks': 'error',
      'jsdoc/empty-tags': 'error',
    },
  },
  prettier,
);
