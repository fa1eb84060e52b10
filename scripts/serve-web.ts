/**
 * Builds the web app and serves dist/web on localhost.
 *
 * Usage: node dist/scripts/serve-web.js [--port N] [--no-build]      (or PORT=N)
 * Port 0 picks a free port. The server only answers files inside dist/web. It sends the
 * cross-origin isolation headers, so the page has SharedArrayBuffer and the engine its threads.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs, parseIntIn } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { buildWeb, repoRoot } from './build-web.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.bin': 'application/octet-stream',
};

/** Cross-origin isolation: the page gets SharedArrayBuffer, the engine its helper threads (docs/web.md). */
export const CROSS_ORIGIN_ISOLATION: Record<string, string> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/**
 * Serves `dir` statically; resolves once listening. Port 0 = any free port. `headers` go on every
 * file: by default COOP/COEP, which make the page cross-origin isolated; `{}` serves a plain page.
 */
export function serveDir(
  dir: string,
  port: number,
  host = '127.0.0.1',
  headers: Record<string, string> = CROSS_ORIGIN_ISOLATION,
): Promise<Server> {
  const rootDir = resolve(dir);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path = decodeURIComponent(url.pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(rootDir, path));
    if (file !== rootDir && !file.startsWith(rootDir + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': MIME[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-cache',
          ...headers,
        });
        res.end(body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      },
    );
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok(server);
    });
  });
}

interface ServeArgs {
  port: number;
  build: boolean;
}

function parseArgs(argv: string[]): ServeArgs {
  const { values } = parseCommandArgs('serve-web', argv, { port: { type: 'string' }, 'no-build': { type: 'boolean' } }, 0);
  const build = values['no-build'] !== true;
  const [source, portText] = values.port !== undefined ? ['--port', values.port as string] : ['PORT', process.env.PORT];
  if (portText === undefined || portText === '') return { port: 8080, build };
  return { port: parseIntIn(source, portText, 0, 65535), build };
}

async function main(): Promise<void> {
  const { port, build } = parseArgs(process.argv.slice(2));
  if (build) await buildWeb();
  const dir = join(repoRoot(), 'dist', 'web');
  let server: Server;
  try {
    server = await serveDir(dir, port);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use; pick another with --port N or PORT=N`);
    if (code === 'EACCES') throw new UsageError(`port ${port} needs privileges; pick one above 1023 with --port N`);
    throw e;
  }
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`Matrix Chess web app: http://localhost:${actual}/  (Ctrl+C to stop)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runScript('serve-web', main).catch((e: unknown) => {
    console.error(`serve-web: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    process.exit(1);
  });
}
