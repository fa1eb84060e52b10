// ESLint: a small rule set plus the import boundaries of docs/architecture.md ("who may import
// whom"). tsc (strict, noUnused*) covers types and unused code, so those rules are not repeated here.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Each layer lists the relative import specifiers it must NOT use, as one regex. A file d folders
// below src/ (src/a/b.ts: 1, src/tune/nnue/x.ts: 2) reaches src/ with d '../', so '../x/' from
// src/a/b.ts and '../../x/' from src/a/b/c.ts are both src/x/, and './x/' from src/a.ts is src/x/.
// Static imports and `export … from` are checked by no-restricted-imports, `import()` by
// no-restricted-syntax with the same regex, so a lazy load cannot cross a layer unseen.
const TOOLS = String.raw`(?:\.\.?\/)+(?:test|bench|scripts)\/`; // src never imports tests or tools

// A Node built-in, with or without the node: prefix.
const NODE_BUILTIN = `(?:node:|(?:${builtinModules.join('|')})(?:\\/|$))`;

// The code a browser runs (the web app, the UCI worker, matrix-chess/core and matrix-chess/engine)
// imports no Node built-in. A module beside it that needs Node (files, threads, the package's
// paths from import.meta.url) is named *-node.ts, and browser code never imports one; src/bnn's
// Node tools (the trainer, the benchmark, the file and kernel loaders) are listed by name.
const BNN_NODE_TOOLS = ['backend', 'bench', 'bench-worker', 'paths', 'trainer', 'train-worker', 'wasm-kernel'];
const NODE_ONLY = ['**/*-node.ts', ...BNN_NODE_TOOLS.map((name) => `src/bnn/${name}.ts`)];
const BNN_TOOL = `(?:${BNN_NODE_TOOLS.join('|')})\\.js`;
const BROWSER = [
  {
    regex: `^${NODE_BUILTIN}`,
    message: 'Browser code imports no Node built-in: what needs Node goes in a *-node.ts module beside it (docs/architecture.md).',
  },
  {
    regex: String.raw`(?:-node\.js|\/bnn\/${BNN_TOOL})$`,
    message: 'Browser code never imports a Node-only module (*-node.ts, src/bnn/backend.ts and the other BNN tools).',
  },
  {
    regex: String.raw`\/node\/`,
    message: 'Browser code never imports src/node, the Node-only plumbing (the worker pool).',
  },
  {
    regex: String.raw`\/cmdline\/(?!board\.js$)`,
    message: 'Of the terminal helpers (src/cmdline), browser code uses only the board drawing: the rest reads stdin and flags.',
  },
];

// esquery regex literals cannot contain '/', so a selector spells it \x2F.
const selectorRegex = (regex) => regex.replaceAll('\\/', '\\x2F').replaceAll('/', '\\x2F');

function restrict(files, ignores, patterns) {
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'no-restricted-syntax': [
        'error',
        ...patterns.map((p) => ({ selector: `ImportExpression[source.value=/${selectorRegex(p.regex)}/]`, message: p.message })),
      ],
    },
  };
}

/**
 * A layer's files and the relative import specifiers they must NOT use (one regex). `browser`:
 * its files run in the browser too, so they also import no Node built-in and no Node-only
 * module, except the Node-only modules among them, which keep the layer's rule alone.
 * `extra`: more banned patterns for the browser files.
 */
function boundary(files, forbidden, message, { browser = false, extra = [] } = {}) {
  const layer = [{ regex: `^(?:${forbidden}|${TOOLS})`, message }];
  if (!browser) return restrict(files, [], layer);
  return [
    restrict(files, NODE_ONLY, [...layer, ...BROWSER, ...extra]),
    // A nested array is an AND: the layer's files that are Node-only.
    restrict(
      files.flatMap((f) => NODE_ONLY.map((n) => [f, n])),
      [],
      layer,
    ),
  ];
}

// Source files sit at most this many folders below src/ (src/tune/nnue/*.ts is 2; the
// AssemblyScript folders one deeper are not linted).
const MAX_DEPTH = 3;

/**
 * The boundary of the layer in `folders` (e.g. 'engine': src/engine and every folder in it): a
 * specifier that climbs to src/ and continues with `beyondSrc` is forbidden ('' forbids climbing
 * to src/ at all). One rule per depth, so '../' inside a two-deep folder stays a sibling import.
 */
function layer(folders, beyondSrc, message, options = {}) {
  const rules = [];
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    const files = folders.map((f) => `src/${f}/${'*/'.repeat(depth - 1)}*.ts`);
    rules.push(boundary(files, String.raw`(?:\.\.\/){${depth}}` + beyondSrc, message, options));
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

  // Bottom: the rules of chess import nothing from the rest of the code base, and run anywhere.
  ...layer(['core'], '', 'src/core is the bottom layer: it imports only from src/core.', { browser: true }),
  // Beside it, Node-only plumbing (the worker pool): no chess, nothing of the project.
  ...layer(['node'], '', 'src/node is the bottom layer beside src/core: it imports nothing of the project.'),
  // Terminal helpers (args, errors, lines, board, progress): on the bottom, below every command.
  ...layer(['cmdline'], String.raw`(?!core\/|node\/)`, 'src/cmdline imports only src/core and src/node.'),
  // The board drawing is also the UCI `d` command's, in the browser's UCI worker.
  boundary(['src/cmdline/board.ts'], String.raw`\.\.\/(?!core\/)`, 'src/cmdline imports only src/core.', { browser: true }),
  // The middle layers stand beside each other on the bottom and never import an interface. They
  // run in the browser, except their Node-only modules (*-node.ts, the BNN tools), which may use src/node.
  ...layer(
    ['matrix', 'engine'],
    String.raw`(?!core\/|node\/)`,
    'src/matrix, src/bnn and src/engine import only src/core and src/node (docs/architecture.md).',
    { browser: true },
  ),
  ...layer(
    ['bnn'],
    String.raw`(?!core\/|node\/)`,
    'src/matrix, src/bnn and src/engine import only src/core and src/node (docs/architecture.md).',
    { browser: true, extra: [{ regex: `^\\.\\/${BNN_TOOL}$`, message: BROWSER[1].message }] },
  ),
  // The chess.js-shaped API (matrix-chess/compat) stands on the core alone, beside the middle layer.
  ...layer(['compat'], String.raw`(?!core\/)`, 'src/compat imports only src/core (docs/architecture.md).', { browser: true }),
  // Analysis stands on the engine and the core, above the middle layer and below the library API.
  ...layer(['analysis'], String.raw`(?!core\/|engine\/)`, 'src/analysis imports only src/core and src/engine.', { browser: true }),
  // The library's entries (package.json "exports"): the root, matrix-chess/engine and the registry
  // run in browsers (no Node built-in, no *-node module: test/bundle-entries.test.ts bundles them);
  // matrix-chess/node (src/index-node.ts) holds what needs Node.
  boundary(
    ['src/index.ts'],
    String.raw`\.\/(?!core\/|compat\/|engine\/|analysis\/|client\/)`,
    'The root entry imports only src/core, src/compat, src/engine, src/analysis and src/client.',
    { browser: true },
  ),
  boundary(
    ['src/index-engine.ts'],
    String.raw`\.\/(?!engine\/|matrix\/|backends\.js$)`,
    'matrix-chess/engine imports only src/engine, src/matrix and the registry.',
    { browser: true },
  ),
  boundary(
    ['src/index-node.ts', 'src/backends-node.ts', 'src/pgn-file-node.ts'],
    String.raw`\.\/(?!core\/|node\/|matrix\/|bnn\/|engine\/|client\/|(?:backends|backends-node|pgn-file-node)\.js$)`,
    'The Node entry (index-node, backends-node, pgn-file-node) imports only src/core, src/node, src/matrix, src/bnn, src/engine, src/client and the registry.',
  ),
  boundary(
    ['src/backends.ts'],
    String.raw`\.\/(?!core\/|matrix\/|bnn\/|engine\/|analysis\/|backends\.js$)`,
    'The library API (index, backends) imports only src/core, src/compat, src/matrix, src/bnn, src/engine and src/analysis.',
    { browser: true },
  ),
  // Interfaces may import anything below them, and each other, but not the matrix-chess command on
  // top. The UCI loop, its search thread and the book's format also run in the browser's UCI worker.
  ...layer(
    ['tune', 'match', 'jobs'],
    String.raw`cli\/`,
    'src/cli is the matrix-chess command on top: shared terminal helpers live in src/cmdline.',
  ),
  // The asynchronous engine (createEngine): a UCI client, in browsers too; its Node transport is *-node.ts.
  ...layer(['client'], String.raw`(?!core\/|engine\/|uci\/)`, 'src/client imports only src/core, src/engine and src/uci.', {
    browser: true,
  }),
  ...layer(['uci', 'book'], String.raw`cli\/`, 'src/cli is the matrix-chess command on top: shared terminal helpers live in src/cmdline.', {
    browser: true,
  }),
  boundary(['src/cli/**/*.ts'], String.raw`(?!)`, 'src never imports test, bench or scripts.'),
  // The browser app and the UCI worker: no terminal code, nothing of Node.
  boundary(
    ['web/**/*.ts'],
    String.raw`\.\.\/src\/(?:cli|cmdline|node)\/`,
    'The browser app does not use the terminal code in src/cli or src/cmdline, nor the Node-only src/node.',
    {
      browser: true,
    },
  ),
);
