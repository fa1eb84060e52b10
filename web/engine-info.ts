/** The engine line of the page: evaluation bar, depth and node counts, the PV in SAN. */
import { Position } from '../src/core/position.js';
import { moveToSan, parseUciMove } from '../src/core/notation.js';
import type { Score } from '../src/core/types.js';
import { ui } from './page.js';

export const fmtNodes = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

/** Shows a score (from the side to move in `fen`) from White's point of view, with depth and PV. */
export function showEngineInfo(score: Score, depth: number, pv: string[], fen: string, extra: string): void {
  const side = fen.split(' ')[1] === 'b' ? -1 : 1;
  let text: string, frac: number;
  if ('mate' in score) {
    const m = score.mate * side;
    text = `#${m}`;
    frac = m > 0 ? 1 : 0;
  } else {
    const cp = score.cp * side;
    text = `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
    frac = 0.5 + 0.5 * Math.tanh(cp / 400);
  }
  ui.evalText.textContent = text;
  ui.evalFill.style.height = `${(frac * 100).toFixed(1)}%`;
  ui.depth.textContent = `depth ${depth}${extra ? ', ' + extra : ''}`;
  ui.pv.textContent = pvToSan(fen, pv) || '–';
}

export function clearEngineInfo(): void {
  ui.evalText.textContent = '–';
  ui.pv.textContent = '–';
  ui.depth.textContent = '';
  ui.evalFill.style.height = '50%';
}

function pvToSan(fen: string, pv: string[]): string {
  try {
    const p = Position.fromFen(fen);
    let num = p.fullmove;
    const parts: string[] = [];
    pv.forEach((u, i) => {
      const m = parseUciMove(p, u);
      const san = moveToSan(p, m);
      if (p.side === 0) parts.push(`${num}. ${san}`);
      else parts.push(i === 0 ? `${num}… ${san}` : san);
      if (p.side === 1) num++;
      p.makeMove(m);
    });
    return parts.join(' ');
  } catch {
    return pv.join(' ');
  }
}
