/**
 * The report of a match, in every form the command prints: the text report and the `--json` one
 * at the end of a run, the progress line and the `--verbose` game lines while it plays, and
 * `match --report`'s report of games already played.
 *
 * `match --report` reads the PGN files of one or more runs between the same two engines (two
 * halves played side by side, a second run to narrow an interval) and reports them as the runner
 * would have had it played them all. Each run's games keep their pairs (Round 2k − 1 and 2k share
 * an opening); runs are laid end to end, so no pair spans two. A file may hold several runs joined
 * one after another: a Round seen again starts the next.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UsageError } from '../cmdline/errors.js';
import { formatSeconds } from '../cmdline/progress.js';
import { summarize, type GameOutcome, type MatchResult } from './match.js';
import { MatchResumeError, readMatchPgn } from './resume.js';
import { formatElo, sprtBounds, type SprtConfig } from './stats.js';

export interface PgnSource {
  /** The name errors and the report use (the file's path). */
  name: string;
  text: string;
}

export interface MatchReport {
  result: MatchResult;
  /** The TimeControl tags of the games, each once, in order of appearance. */
  timeControls: string[];
  /** Per source, the note of an incomplete last game left out (a match still being written). */
  notes: string[];
}

/** The match PGN files named on the command line (plain, or gzipped when the name ends in .gz). */
export function readPgnSources(names: readonly string[]): PgnSource[] {
  return names.map((name) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(name);
    } catch (e) {
      throw new UsageError(`match --report: cannot read '${name}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    try {
      return { name, text: (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8') };
    } catch {
      throw new UsageError(`match --report: ${name}: not a gzip file (the name ends in .gz)`);
    }
  });
}

/**
 * Sums the games of `sources` from the point of view of engine1: the engine with White in the
 * first file's first odd Round (the runner gives engine1 White in Round 1, 3, …). Every game must
 * be between the same two engines; a MatchResumeError names the file, game and field otherwise.
 */
export function reportFromPgns(sources: readonly PgnSource[]): MatchReport {
  if (sources.length === 0) throw new MatchResumeError('match --report: no PGN file given');
  let names: [string, string] | null = null;
  const games: GameOutcome[] = [],
    timeControls: string[] = [],
    notes: string[] = [];
  let base = 0;
  for (const src of sources) {
    const read = readMatchPgn(src.text, src.name);
    if (read.droppedTail) notes.push(`match --report: ${src.name}: ${read.droppedTail}; left out`);
    if (read.games.length === 0) throw new MatchResumeError(`match --report: ${src.name}: no finished games`);
    if (names === null) {
      const g = read.games[0];
      names = g.index % 2 === 0 ? [g.white, g.black] : [g.black, g.white];
    }
    // A Round seen again starts the next run joined into this file (two halves concatenated).
    let top = 0,
      seen = new Set<number>();
    for (const g of read.games) {
      if (seen.has(g.index)) {
        base += top + (top % 2);
        top = 0;
        seen = new Set<number>();
      }
      seen.add(g.index);
      // The engine with White, by name: engine1's games are the ones it plays as White or Black.
      const whiteEngine = g.white === names[0] && g.black === names[1] ? 0 : g.white === names[1] && g.black === names[0] ? 1 : -1;
      if (whiteEngine < 0)
        throw new MatchResumeError(
          `match --report: ${src.name}: Round ${g.index + 1}: played by '${g.white}' and '${g.black}', the report is of '${names[0]}' and '${names[1]}'`,
        );
      const { white: _w, black: _b, ...outcome } = g;
      // The PGN says who had White; usage and faults are per colour until mapped to engines.
      const flip = whiteEngine !== g.whiteEngine;
      games.push({
        ...outcome,
        index: base + g.index,
        whiteEngine: whiteEngine as 0 | 1,
        usage: flip ? [outcome.usage[1], outcome.usage[0]] : outcome.usage,
        ...(outcome.faultEngine !== undefined ? { faultEngine: (flip ? 1 - outcome.faultEngine : outcome.faultEngine) as 0 | 1 } : {}),
      });
      top = Math.max(top, g.index + 1);
      const tc = /\[TimeControl "([^"]*)"\]/.exec(g.pgn)?.[1] ?? '?';
      if (!timeControls.includes(tc)) timeControls.push(tc);
    }
    base += top + (top % 2);
  }
  return { result: summarize(names!, games), timeControls, notes };
}

/** The human report printed at the end of a match. */
export function formatReport(r: MatchResult, opts: { tc: string; openings: string; sprt?: SprtConfig; resumed?: number }): string {
  const n = r.games.length;
  const [a, b] = r.names;
  const lines = [
    `${a} vs ${b}: ${n} games at ${opts.tc}, openings: ${opts.openings}${opts.resumed ? ` (${opts.resumed} resumed from the PGN)` : ''}${r.stoppedEarly ? ' (stopped early by SPRT)' : ''}`,
    `Score of ${a}: +${r.wins} =${r.draws} -${r.losses}  ${n ? ((100 * (r.wins + r.draws / 2)) / n).toFixed(1) : '0.0'}%`,
    `Elo difference (${a} - ${b}), 95% interval:`,
    `  trinomial   ${formatElo(r.trinomial)}  (${n} games)`,
    `  pentanomial ${formatElo(r.pentanomial)}  (${r.pentanomial.samples} pairs, [0, ½, 1, 1½, 2] = [${r.pairs.join(', ')}])`,
  ];
  if (r.sprt && opts.sprt) {
    const { lower, upper } = sprtBounds(opts.sprt);
    const verdict =
      r.sprt.decision === 'H1'
        ? `H1 accepted (${a} is stronger by about elo1)`
        : r.sprt.decision === 'H0'
          ? `H0 accepted (no gain of elo1)`
          : 'no decision yet';
    lines.push(
      `SPRT elo0=${opts.sprt.elo0} elo1=${opts.sprt.elo1} alpha=${opts.sprt.alpha} beta=${opts.sprt.beta}: LLR ${r.sprt.llr.toFixed(2)} (${lower.toFixed(2)}, ${upper.toFixed(2)}): ${verdict}`,
    );
  }
  const w = Math.max(a.length, b.length, 6);
  lines.push(`${'Faults'.padEnd(w)}  illegal  time  crash`);
  for (const i of [0, 1] as const) {
    const f = r.faults[i];
    lines.push(`${r.names[i].padEnd(w)}  ${String(f.illegal).padStart(7)}  ${String(f.time).padStart(4)}  ${String(f.crash).padStart(5)}`);
  }
  const perMove = ([0, 1] as const).map((i) => {
    const u = r.usage[i];
    const t = u.moves ? `${(u.timeMs / u.moves / 1000).toFixed(2)}s` : '-';
    const d = u.depthCount ? (u.depthSum / u.depthCount).toFixed(1) : '-';
    return `${r.names[i]} ${t}, depth ${d}`;
  });
  lines.push(`Per move (average): ${perMove.join('; ')}`);
  const reasons = new Map<string, number>();
  for (const g of r.games) reasons.set(g.verdict.reason, (reasons.get(g.verdict.reason) ?? 0) + 1);
  lines.push(`Endings: ${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  return lines.join('\n');
}

/** The `--json` report: the result with its games, less their PGN text. */
export function formatReportJson(r: MatchResult): string {
  const { games, ...rest } = r;
  return JSON.stringify({ ...rest, games: games.map(({ pgn: _pgn, ...g }) => g) }, null, 2) + '\n';
}

/** The `--verbose` line of a finished game. */
export function gameLine(g: GameOutcome, names: readonly [string, string]): string {
  return `game ${g.index + 1}: ${names[g.whiteEngine]} - ${names[1 - g.whiteEngine]} ${g.verdict.result} (${g.verdict.text})`;
}

/** The progress line while a match runs (on a terminal): games, score, Elo so far, LLR, time. */
export function progressLine(totals: MatchResult, games: number, elapsedSeconds: number, etaSeconds: number): string {
  const llr = totals.sprt ? `  LLR ${totals.sprt.llr.toFixed(2)}` : '';
  return `game ${totals.games.length}/${games}  +${totals.wins} =${totals.draws} -${totals.losses}  Elo ${formatElo(totals.trinomial)}${llr}  elapsed ${formatSeconds(elapsedSeconds)} ETA ${formatSeconds(etaSeconds)}`;
}
