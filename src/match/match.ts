/**
 * The match runner: two UCI engines play each opening twice with colours reversed, under a
 * clock the runner keeps itself. Every move is checked by our core and every game end is
 * decided by it (or by the optional score adjudication), never by the engines.
 */
import { Position } from '../core/position.js';
import { START_FEN } from '../core/fen.js';
import { MoveError, moveToSan, parseUciMove } from '../core/notation.js';
import { BISHOP, KING, KNIGHT } from '../core/types.js';
import { ScoreAdjudicator, faultVerdict, ruleVerdict, type DrawRule, type ResignRule, type Verdict } from './adjudicate.js';
import type { Opening } from './openings.js';
import { makePgn, newPgnGame, pgnDate, pgnLine, pgnScore, setPgnStartFen } from '../core/pgn/index.js';
import { eloPentanomial, eloTrinomial, pairBucket, sprt, type EloEstimate, type SprtConfig, type SprtState } from './stats.js';
import { UciEngine, type EngineSpec } from './uci-engine.js';

export interface TimeControl {
  baseMs: number;
  incMs: number;
}

export interface MatchConfig {
  engines: [EngineSpec, EngineSpec];
  openings: Opening[];
  /** Chess960: castles are king-takes-own-rook between runner and engines (they get UCI_Chess960), the PGN says so. */
  chess960?: boolean;
  /** Total games; game 2k and 2k+1 share opening k (mod the set) with colours reversed. */
  games: number;
  tc: TimeControl;
  /** A move may arrive this late past the flag before it counts as a time loss. */
  toleranceMs: number;
  /** Games played at once (each needs two engine processes). */
  concurrency: number;
  resign?: ResignRule;
  draw?: DrawRule;
  sprt?: SprtConfig;
  /** Safety cap on game length in plies; reaching it is adjudicated a draw. */
  maxPlies: number;
  event: string;
  site: string;
  /** Games already finished (`match --resume`): their indices are not played again, and they count in the totals. */
  done?: GameOutcome[];
  /** Called when an engine pair has started, with the names its games are played under (a throw stops the match). */
  onStart?: (names: [string, string]) => void;
  /** Called with each finished game (in finishing order) and the running totals. */
  onGame?: (game: GameOutcome, totals: MatchResult) => void;
  /** Optional log of all UCI traffic. */
  log?: (engine: string, dir: '>' | '<', line: string) => void;
}

export interface GameOutcome {
  /** 0-based game index; round = index + 1 in the PGN. */
  index: number;
  opening: number;
  /** Which engine (0 = engine1, 1 = engine2) had White. */
  whiteEngine: 0 | 1;
  verdict: Verdict;
  /** The engine (0/1) at fault for a time loss, illegal move or crash. */
  faultEngine?: 0 | 1;
  plies: number;
  pgn: string;
  /** Per engine (index 0/1): moves played, the wall time they took, and the sum/count of reported depths. */
  usage: [EngineUsage, EngineUsage];
}

export interface EngineUsage {
  moves: number;
  timeMs: number;
  depthSum: number;
  depthCount: number;
}

export interface FaultCounts {
  illegal: number;
  time: number;
  crash: number;
}

export interface MatchResult {
  /** Names as the engines reported them (id name), else from the spec. */
  names: [string, string];
  games: GameOutcome[];
  /** From engine1's point of view. */
  wins: number;
  draws: number;
  losses: number;
  /** Pentanomial counts of complete colour-reversed pairs: engine1 scored 0, ½, 1, 1½, 2. */
  pairs: number[];
  trinomial: EloEstimate;
  pentanomial: EloEstimate;
  sprt?: SprtState;
  faults: [FaultCounts, FaultCounts];
  /** Totals over all games, per engine. */
  usage: [EngineUsage, EngineUsage];
  /** True when the SPRT reached a decision and the match stopped early. */
  stoppedEarly: boolean;
}

/** Score (0, ½, 1) of engine `e` in a finished game. */
export function engineScore(g: GameOutcome, e: 0 | 1): number {
  const r = g.verdict.result;
  if (r === '1/2-1/2') return 0.5;
  const whiteWon = r === '1-0';
  return (g.whiteEngine === e) === whiteWon ? 1 : 0;
}

export function summarize(names: [string, string], games: GameOutcome[], cfg?: SprtConfig, stoppedEarly = false): MatchResult {
  let wins = 0,
    draws = 0,
    losses = 0;
  const faults: [FaultCounts, FaultCounts] = [
    { illegal: 0, time: 0, crash: 0 },
    { illegal: 0, time: 0, crash: 0 },
  ];
  const byIndex = new Map<number, GameOutcome>();
  const usage: [EngineUsage, EngineUsage] = [newUsage(), newUsage()];
  for (const g of games) {
    for (const e of [0, 1]) {
      usage[e].moves += g.usage[e].moves;
      usage[e].timeMs += g.usage[e].timeMs;
      usage[e].depthSum += g.usage[e].depthSum;
      usage[e].depthCount += g.usage[e].depthCount;
    }
    const s = engineScore(g, 0);
    if (s === 1) wins++;
    else if (s === 0) losses++;
    else draws++;
    if (g.faultEngine !== undefined) {
      const f = faults[g.faultEngine];
      if (g.verdict.reason === 'illegal-move') f.illegal++;
      else if (g.verdict.reason === 'time') f.time++;
      else if (g.verdict.reason === 'crash') f.crash++;
    }
    byIndex.set(g.index, g);
  }
  const pairs = [0, 0, 0, 0, 0];
  for (const g of games) {
    if (g.index % 2 !== 0) continue;
    const partner = byIndex.get(g.index + 1);
    if (partner) pairs[pairBucket(engineScore(g, 0), engineScore(partner, 0))]++;
  }
  const result: MatchResult = {
    names,
    games,
    wins,
    draws,
    losses,
    pairs,
    trinomial: eloTrinomial(wins, draws, losses),
    pentanomial: eloPentanomial(pairs),
    faults,
    usage,
    stoppedEarly,
  };
  if (cfg) result.sprt = sprt(cfg, { wins, draws, losses }, pairs);
  return result;
}

/** Which engine (0 = engine1, 1 = engine2) plays `side` (0 White, 1 Black) when `whiteEngine` has White. */
export function engineOfSide(whiteEngine: 0 | 1, side: number): 0 | 1 {
  return side === 0 ? whiteEngine : ((1 - whiteEngine) as 0 | 1);
}

/** An engine's usage before its first move. */
export function newUsage(): EngineUsage {
  return { moves: 0, timeMs: 0, depthSum: 0, depthCount: 0 };
}

/** A time control as the PGN's TimeControl tag and the report write it: "10+0.1" (seconds). */
export function tcText(tc: TimeControl): string {
  return `${tc.baseMs / 1000}+${tc.incMs / 1000}`;
}

/** True when `color` has only its king, or king and one minor piece: no way to mate at all. */
export function cannotMate(pos: Position, color: number): boolean {
  let minors = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p === 0 || p >> 3 !== color) continue;
    const t = p & 7;
    if (t === BISHOP || t === KNIGHT) minors++;
    else if (t !== KING) return false;
  }
  return minors <= 1;
}

/** One worker's pair of engine processes, restarted when one crashed or overran its clock. */
class EnginePair {
  readonly engines: [UciEngine, UciEngine];
  constructor(specs: [EngineSpec, EngineSpec], log?: MatchConfig['log']) {
    this.engines = [0, 1].map((i) => new UciEngine(specs[i], log && ((dir, line) => log(this.names()[i], dir, line)))) as [
      UciEngine,
      UciEngine,
    ];
  }

  async ensureRunning(): Promise<void> {
    for (const e of this.engines) if (!e.running) await e.start();
  }

  /** Display names, made distinct when both engines call themselves the same. */
  names(): [string, string] {
    const [a, b] = this.engines.map((e) => e.displayName);
    return a === b ? [`${a} #1`, `${b} #2`] : [a, b];
  }

  async close(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.quit()));
  }
}

/** Plays one game between the pair's engines; `whiteEngine` says which one has White. */
export async function playGame(
  cfg: MatchConfig,
  pair: EnginePair,
  index: number,
  openingIndex: number,
  whiteEngine: 0 | 1,
): Promise<GameOutcome> {
  const opening = cfg.openings[openingIndex];
  await pair.ensureRunning();
  const [e0, e1] = pair.engines;
  await Promise.all([e0.newGame(), e1.newGame()]);
  const bySide = whiteEngine === 0 ? [e0, e1] : [e1, e0];

  const pos = Position.fromFen(opening.fen);
  const uci: string[] = [];
  const san: string[] = [];
  const comments: Array<string | undefined> = [];
  const chess960 = cfg.chess960 === true;
  for (const text of opening.moves) {
    const m = parseUciMove(pos, text, chess960);
    san.push(moveToSan(pos, m));
    comments.push(undefined);
    pos.makeMove(m);
    uci.push(text);
  }
  if (san.length > 0) comments[san.length - 1] = 'book';

  const clocks = [cfg.tc.baseMs, cfg.tc.baseMs];
  const adjudicator = new ScoreAdjudicator(cfg.resign, cfg.draw);
  const posPrefix = opening.fen === START_FEN ? 'position startpos' : `position fen ${opening.fen}`;
  let verdict: Verdict | null = null;
  let faultEngine: 0 | 1 | undefined;
  const usage: [EngineUsage, EngineUsage] = [newUsage(), newUsage()];

  while (!verdict) {
    verdict = ruleVerdict(pos);
    if (verdict) break;
    if (san.length >= cfg.maxPlies) {
      verdict = {
        result: '1/2-1/2',
        reason: 'max-plies',
        termination: 'adjudication',
        text: `Draw adjudicated: game reached ${cfg.maxPlies} plies`,
      };
      break;
    }
    const side = pos.side;
    const engine = bySide[side];
    const posCmd = uci.length > 0 ? `${posPrefix} moves ${uci.join(' ')}` : posPrefix;
    const goCmd = `go wtime ${Math.max(0, Math.round(clocks[0]))} btime ${Math.max(0, Math.round(clocks[1]))} winc ${cfg.tc.incMs} binc ${cfg.tc.incMs}`;
    const res = await engine.go(posCmd, goCmd, clocks[side] + cfg.toleranceMs);
    if (res.status === 'crash') {
      const why = engine.stderrSummary();
      verdict = faultVerdict(side, 'crash', `exited${why ? `: ${why}` : ''}`);
      faultEngine = engineOfSide(whiteEngine, side);
      break;
    }
    if (res.status === 'timeout' || res.elapsedMs > clocks[side] + cfg.toleranceMs) {
      verdict = faultVerdict(
        side,
        'time',
        `${(res.elapsedMs / 1000).toFixed(3)}s used, ${(Math.max(0, clocks[side]) / 1000).toFixed(3)}s left`,
      );
      // The laws of chess: a flag fall is a draw when the opponent could never mate.
      if (cannotMate(pos, 1 - side))
        verdict = { ...verdict, result: '1/2-1/2', text: `${verdict.text}, but ${side === 0 ? 'Black' : 'White'} cannot mate: draw` };
      faultEngine = engineOfSide(whiteEngine, side);
      // Its late bestmove would be read as the answer to the next go: start it afresh.
      engine.kill();
      break;
    }
    clocks[side] = Math.max(0, clocks[side] - res.elapsedMs) + cfg.tc.incMs;
    let move: number;
    try {
      if (!res.bestMove) throw new MoveError('', 'empty bestmove');
      move = parseUciMove(pos, res.bestMove, chess960);
    } catch (e) {
      if (!(e instanceof MoveError)) throw e;
      verdict = faultVerdict(side, 'illegal-move', e.message);
      faultEngine = engineOfSide(whiteEngine, side);
      break;
    }
    // Usage counts the moves played (those in the PGN, so a resumed match reads the same figures).
    const u = usage[engineOfSide(whiteEngine, side)];
    u.moves++;
    u.timeMs += res.elapsedMs;
    if (res.depth !== undefined) {
      u.depthSum += res.depth;
      u.depthCount++;
    }
    san.push(moveToSan(pos, move));
    const sc = res.score ? pgnScore(res.score) : '';
    comments.push(`${sc}${sc && res.depth !== undefined ? `/${res.depth}` : ''}${sc ? ' ' : ''}${(res.elapsedMs / 1000).toFixed(2)}s`);
    pos.makeMove(move);
    uci.push(res.bestMove!);
    adjudicator.record(side, res.score);
    verdict = adjudicator.check(pos.fullmove);
  }

  const names = pair.names();
  const game = newPgnGame({
    Event: cfg.event,
    Site: cfg.site,
    Date: pgnDate(),
    Round: String(index + 1),
    White: names[whiteEngine],
    Black: names[1 - whiteEngine],
    Result: verdict.result,
  });
  setPgnStartFen(game, opening.fen);
  game.tags.set('TimeControl', tcText(cfg.tc));
  game.tags.set('Termination', verdict.termination);
  game.tags.set('PlyCount', String(san.length));
  if (chess960) game.tags.set('Variant', 'Chess960');
  // One comment per move (resume.ts reads them back): the ending joins the last move's comment.
  if (san.length > 0) {
    const last = comments[san.length - 1];
    comments[san.length - 1] = last === undefined ? verdict.text : `${last}, ${verdict.text}`;
  } else game.comments.push(verdict.text);
  game.moves = pgnLine(san, comments);
  const pgn = makePgn(game);
  return { index, opening: openingIndex, whiteEngine, verdict, faultEngine, plies: san.length, pgn, usage };
}

/**
 * Runs the match. The games not in `cfg.done` are handed out in order to `concurrency` workers,
 * each with its own two engine processes. With an SPRT, no new game starts once the LLR crosses
 * a bound.
 */
export async function runMatch(cfg: MatchConfig): Promise<MatchResult> {
  const games: GameOutcome[] = [...(cfg.done ?? [])];
  const finished = new Set(games.map((g) => g.index));
  const todo = Array.from({ length: cfg.games }, (_, i) => i).filter((i) => !finished.has(i));
  let next = 0;
  let names: [string, string] = [cfg.engines[0].name || cfg.engines[0].cmd, cfg.engines[1].name || cfg.engines[1].cmd];
  // Resumed games may already have decided the SPRT.
  let stop = cfg.sprt !== undefined && games.length > 0 && Boolean(summarize(names, games, cfg.sprt).sprt?.decision);

  const worker = async (): Promise<void> => {
    const pair = new EnginePair(cfg.engines, cfg.log);
    try {
      await pair.ensureRunning();
      names = pair.names();
      cfg.onStart?.(names);
      while (!stop && next < todo.length) {
        const index = todo[next++];
        const opening = Math.floor(index / 2) % cfg.openings.length;
        const whiteEngine = (index % 2) as 0 | 1;
        const g = await playGame(cfg, pair, index, opening, whiteEngine);
        games.push(g);
        const totals = summarize(names, games, cfg.sprt);
        if (totals.sprt?.decision) stop = true;
        cfg.onGame?.(g, totals);
      }
    } catch (e) {
      stop = true; // let the other workers finish their game and shut down
      throw e;
    } finally {
      await pair.close();
    }
  };

  const n = Math.max(1, Math.min(cfg.concurrency, todo.length));
  const results = await Promise.allSettled(Array.from({ length: n }, worker));
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  games.sort((a, b) => a.index - b.index);
  return summarize(names, games, cfg.sprt, stop && next < todo.length);
}
