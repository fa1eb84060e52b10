/** The part of node-uci (a third-party UCI client, untyped) that the host-convention test uses. */
declare module 'node-uci' {
  export interface GoResult {
    bestmove: string | null;
    info: Array<Record<string, unknown>>;
  }
  export class Engine {
    constructor(filePath: string);
    id: { name?: string; author?: string };
    options: Map<string, unknown>;
    init(): Promise<Engine>;
    isready(): Promise<Engine>;
    setoption(name: string, value?: string): Promise<Engine>;
    ucinewgame(): Promise<Engine>;
    position(fen: string, moves?: string[]): Promise<Engine>;
    go(options: Record<string, number | boolean | string[]>): Promise<GoResult>;
    goInfinite(options?: Record<string, number | boolean | string[]>): import('node:events').EventEmitter;
    stop(): Promise<GoResult>;
    quit(): Promise<Engine>;
  }
}
