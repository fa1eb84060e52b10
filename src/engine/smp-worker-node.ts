/** The script of a Lazy SMP helper thread on Node (spawnNodeHelper in smp-node.ts). */
import { parentPort } from 'node:worker_threads';
import { nnueFromNetwork } from './nnue/load-node.js';
import { createHelper } from './smp-helper.js';
import type { ToHelper } from './smp.js';

const handle = createHelper((n) => nnueFromNetwork(n.network, n.kernel, n.source));
parentPort!.on('message', (msg: ToHelper) => handle(msg));
