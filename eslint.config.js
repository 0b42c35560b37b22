// ESLint (flat config) for the TypeScript sources: the recommended rules of
// ESLint and typescript-eslint, plus the project's habits. Formatting is
// Prettier's job (.prettierrc.json), not the linter's. Run: npm run lint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'web/dist/', 'web/sw.js', 'node_modules/', 'assembly/**/*.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An object in a template literal prints "[object Object]" (e.g. a Result's error instead of its message).
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true, allowAny: true },
      ],
      // tsc checks unused names (noUnusedLocals, noUnusedParameters).
      '@typescript-eslint/no-unused-vars': 'off',
      // Definite assignments after checks the compiler cannot follow are deliberate.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-console': 'off',
      // The protocol checks input and output for control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['bin/**/*.js', 'assembly/build.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', WebAssembly: 'readonly' } },
  },
);
