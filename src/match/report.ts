/**
 * `match --report`: the report of a match, from the PGN files of one or more runs between the same
 * two engines (two halves played side by side, a second run to narrow an interval), as the runner
 * would have printed it had it played them all. Each run's games keep their pairs (Round 2k − 1
 * and 2k share an opening); runs are laid end to end, so no pair spans two. A file may hold
 * several runs joined one after another: a Round seen again starts the next.
 */
import { summarize, type GameOutcome, type MatchResult } from './match.js';
import { MatchResumeError, readMatchPgn } from './resume.js';

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
