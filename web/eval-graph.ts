/**
 * The evaluation graph of an analysed game: one point per ply, White's winning chances after the
 * move (lichess's win% of src/analysis/win-probability.ts, so ±10 pawns and mates sit near the
 * edges without flattening the rest). Judged moves get a coloured point; clicking a point picks
 * that ply.
 */
import type { GameAnalysis, MoveAnalysis } from '../src/analysis/analyse-game.js';
import { scoreToCp, winPercent } from '../src/analysis/win-probability.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600,
  HEIGHT = 120;

/** White's win% after a move; a side mated on the board (mate 0) has lost to the mover. */
export function whiteWinAfter(m: MoveAnalysis): number {
  const s = m.evalAfter;
  if ('mate' in s && s.mate === 0) return m.color === 'white' ? 100 : 0;
  return winPercent(scoreToCp(s));
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export function renderEvalGraph(a: GameAnalysis, picked: number | null, onPick: (ply: number) => void): SVGSVGElement {
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'eval-graph', 'data-testid': 'eval-graph', role: 'img' });
  const title = svg('title', {});
  title.textContent = "White's winning chances after each move";
  root.append(title);
  const n = a.moves.length;
  const x = (i: number): number => (n <= 1 ? WIDTH / 2 : 6 + (i * (WIDTH - 12)) / (n - 1));
  const y = (win: number): number => 4 + ((100 - win) * (HEIGHT - 8)) / 100;
  const pts = a.moves.map((m, i) => `${x(i).toFixed(1)},${y(whiteWinAfter(m)).toFixed(1)}`);
  // White's area below the line, the 50% line, then the line itself.
  if (n > 0) root.append(svg('polygon', { class: 'white-area', points: `${x(0)},${HEIGHT} ${pts.join(' ')} ${x(n - 1)},${HEIGHT}` }));
  root.append(svg('line', { class: 'mid', x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2 }));
  root.append(svg('polyline', { class: 'eval-line', points: pts.join(' ') }));
  a.moves.forEach((m, i) => {
    const c = svg('circle', {
      class: `ply${m.judgement ? ' ' + m.judgement : ''}${picked === i ? ' picked' : ''}`,
      cx: x(i).toFixed(1),
      cy: y(whiteWinAfter(m)).toFixed(1),
      r: m.judgement || picked === i ? 4 : 2.5,
      'data-ply': i,
    });
    const t = svg('title', {});
    t.textContent = `${m.moveNumber}${m.color === 'white' ? '.' : '...'} ${m.san}`;
    c.append(t);
    c.addEventListener('click', () => onPick(i));
    root.append(c);
  });
  return root;
}
