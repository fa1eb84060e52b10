/**
 * The transport on Node: our UCI engine in a worker thread (src/uci/session-thread-node.ts, the
 * UCI loop, which starts its own search thread), lines as string messages. The thread keeps the
 * process alive only while a call waits for it, so a program that forgets quit() still exits.
 */
import { Worker } from 'node:worker_threads';
import type { UciTransport } from './transport.js';

/**
 * The process's Node flags for the thread, less --input-type, which a worker thread refuses (a
 * program run as `node --input-type=module -e …` would otherwise get no engine).
 */
function threadExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++;
    else if (!argv[i].startsWith('--input-type=')) out.push(argv[i]);
  }
  return out;
}

export function nodeThreadTransport(): UciTransport {
  const worker = new Worker(new URL('../uci/session-thread-node.js', import.meta.url), { execArgv: threadExecArgv() });
  worker.unref();
  let ended = false;
  return {
    send: (line) => worker.postMessage(line),
    listen(onLine, onEnd) {
      worker.on('message', (data: unknown) => {
        for (const line of String(data).split(/\r?\n/)) if (line !== '') onLine(line);
      });
      const end = (err: Error): void => {
        if (ended) return;
        ended = true;
        onEnd(err);
      };
      worker.on('error', end);
      worker.on('exit', (code) => end(new Error(`the engine thread exited (code ${code})`)));
    },
    terminate: async () => {
      await worker.terminate();
    },
    setBusy: (busy) => (busy ? worker.ref() : worker.unref()),
  };
}
