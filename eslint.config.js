// ESLint: a small rule set plus the import boundaries of docs/architecture.md ("who may import
// whom"). tsc (strict, noUnused*) covers types and unused code, so those rules are not repeated here.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Each layer lists the relative import specifiers it must NOT use, as one regex. Files sit one
// folder deep in src/, so '../x/' from src/a/b.ts is src/x/ and './x/' from src/a.ts is src/x/.
// Static imports and `export … from` are checked by no-restricted-imports, `import()` by
// no-restricted-syntax with the same regex, so a lazy load cannot cross a layer unseen.
const TOOLS = String.raw`(?:\.\.?\/)+(?:test|bench|scripts)\/`; // src never imports tests or tools

function boundary(files, forbidden, message) {
  const regex = `^(?:${forbidden}|${TOOLS})`;
  // esquery regex literals cannot contain '/', so the selector spells it \x2F.
  const selectorRegex = regex.replaceAll('\\/', '\\x2F').replaceAll('/', '\\x2F');
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${selectorRegex}/]`, message }],
    },
  };
}

export default defineConfig(
  // AssemblyScript sources (decorators, WebAssembly builtins) are not TypeScript for ESLint.
  { ignores: ['dist/**', 'node_modules/**', 'src/bnn/wasm/**', 'src/engine/nnue/wasm/**', 'src/tune/wasm/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': 'off', // tsc's noUnusedLocals/noUnusedParameters
    },
  },

  // Bottom: the rules of chess import nothing from the rest of the code base.
  boundary(['src/core/**/*.ts'], String.raw`\.\.\/`, 'src/core is the bottom layer: it imports only from src/core.'),
  // Terminal helpers (args, errors, lines, board, progress): on the core, below every command.
  boundary(['src/cmdline/**/*.ts'], String.raw`\.\.\/(?!core\/)`, 'src/cmdline imports only src/core.'),
  // The middle layers stand beside each other on the core and never import an interface.
  boundary(
    ['src/matrix/*.ts', 'src/bnn/*.ts', 'src/engine/*.ts'],
    String.raw`\.\.\/(?!core\/)`,
    'src/matrix, src/bnn and src/engine import only src/core (docs/architecture.md).',
  ),
  // One folder deeper (src/engine/nnue): '../' is the engine itself, '../../' must be the core.
  boundary(['src/engine/nnue/*.ts'], String.raw`\.\.\/\.\.\/(?!core\/)`, 'src/engine imports only src/core (docs/architecture.md).'),
  // The chess.js-shaped API (matrix-chess/compat) stands on the core alone, beside the middle layer.
  boundary(['src/compat/*.ts'], String.raw`\.\.\/(?!core\/)`, 'src/compat imports only src/core (docs/architecture.md).'),
  // Analysis stands on the engine and the core, above the middle layer and below the library API.
  boundary(['src/analysis/*.ts'], String.raw`\.\.\/(?!core\/|engine\/)`, 'src/analysis imports only src/core and src/engine.'),
  // The library API (what `import 'matrix-chess'` loads) stays free of the node-only interfaces.
  boundary(
    ['src/index.ts', 'src/backends.ts'],
    String.raw`\.\/(?!core\/|compat\/|matrix\/|bnn\/|engine\/|analysis\/|backends\.js$)`,
    'The library API (index, backends) imports only src/core, src/compat, src/matrix, src/bnn, src/engine and src/analysis.',
  ),
  // Interfaces may import anything below them, and each other, but not the matrix-chess command on top.
  boundary(
    ['src/uci/**/*.ts', 'src/tune/**/*.ts', 'src/match/**/*.ts', 'src/book/**/*.ts', 'src/jobs/**/*.ts'],
    String.raw`\.\.\/cli\/`,
    'src/cli is the matrix-chess command on top: shared terminal helpers live in src/cmdline.',
  ),
  boundary(['src/cli/**/*.ts'], String.raw`(?!)`, 'src never imports test, bench or scripts.'),
  {
    files: ['web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^\.\.\/src\/(?:cli|cmdline)\/`,
              message: 'The browser app does not use the terminal code in src/cli or src/cmdline.',
            },
          ],
        },
      ],
    },
  },
);
