/** One all-cores `bnn bench` thread: prepares its share, says 'ready', runs on 'go', posts the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareThreadRun, type ThreadJob } from './bench.js';

const port = parentPort!;
const run = prepareThreadRun(workerData as ThreadJob);
port.postMessage('ready');
port.once('message', () => port.postMessage(run()));
