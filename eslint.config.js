// ESLint: a small rule set plus the import boundaries of docs/architecture.md ("who may import
// whom"). tsc (strict, noUnused*) covers types and unused code, so those rules are not repeated here.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Each layer lists the relative import specifiers it must NOT use, as one regex. A file d folders
// below src/ (src/a/b.ts: 1, src/tune/nnue/x.ts: 2) reaches src/ with d '../', so '../x/' from
// src/a/b.ts and '../../x/' from src/a/b/c.ts are both src/x/, and './x/' from src/a.ts is src/x/.
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

// Source files sit at most this many folders below src/ (src/tune/nnue/*.ts is 2; the
// AssemblyScript folders one deeper are not linted).
const MAX_DEPTH = 3;

/**
 * The boundary of the layer in `folders` (e.g. 'engine': src/engine and every folder in it): a
 * specifier that climbs to src/ and continues with `beyondSrc` is forbidden ('' forbids climbing
 * to src/ at all). One rule per depth, so '../' inside a two-deep folder stays a sibling import.
 */
function layer(folders, beyondSrc, message) {
  const rules = [];
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    const files = folders.map((f) => `src/${f}/${'*/'.repeat(depth - 1)}*.ts`);
    rules.push(boundary(files, String.raw`(?:\.\.\/){${depth}}` + beyondSrc, message));
  }
  return rules;
}

export default defineConfig(
  // AssemblyScript sources (decorators, WebAssembly builtins) are not TypeScript for ESLint.
  { ignores: ['dist/**', 'node_modules/**', 'src/bnn/wasm/**', 'src/engine/nnue/wasm/**', 'src/tune/nnue/wasm/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': 'off', // tsc's noUnusedLocals/noUnusedParameters
    },
  },

  // Bottom: the rules of chess import nothing from the rest of the code base.
  ...layer(['core'], '', 'src/core is the bottom layer: it imports only from src/core.'),
  // Beside it, Node-only plumbing (the worker pool): no chess, nothing of the project.
  ...layer(['node'], '', 'src/node is the bottom layer beside src/core: it imports nothing of the project.'),
  // Terminal helpers (args, errors, lines, board, progress): on the bottom, below every command.
  ...layer(['cmdline'], String.raw`(?!core\/|node\/)`, 'src/cmdline imports only src/core and src/node.'),
  // The middle layers stand beside each other on the bottom and never import an interface.
  ...layer(
    ['matrix', 'bnn', 'engine'],
    String.raw`(?!core\/|node\/)`,
    'src/matrix, src/bnn and src/engine import only src/core and src/node (docs/architecture.md).',
  ),
  // Analysis stands on the engine and the core, above the middle layer and below the library API.
  ...layer(['analysis'], String.raw`(?!core\/|engine\/)`, 'src/analysis imports only src/core and src/engine.'),
  // The library API (what `import 'matrix-chess'` loads) stays free of the node-only interfaces.
  boundary(
    ['src/index.ts', 'src/game.ts', 'src/backends.ts'],
    String.raw`\.\/(?!core\/|matrix\/|bnn\/|engine\/|analysis\/|game\.js$|backends\.js$)`,
    'The library API (index, game, backends) imports only src/core, src/matrix, src/bnn, src/engine and src/analysis.',
  ),
  // Interfaces may import anything below them, and each other, but not the matrix-chess command on top.
  ...layer(
    ['uci', 'tune', 'match', 'book', 'jobs'],
    String.raw`cli\/`,
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
              regex: String.raw`^\.\.\/src\/(?:cli|cmdline|node)\/`,
              message: 'The browser app does not use the terminal code in src/cli or src/cmdline, nor the Node-only src/node.',
            },
          ],
        },
      ],
    },
  },
);
