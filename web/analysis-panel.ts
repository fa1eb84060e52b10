/**
 * The "Analyse game" panel: progress while the engine worker runs the library's analysis
 * (src/analysis/analyse-game.ts), then the evaluation graph, each side's accuracy and ACPL, the
 * judged moves with the better move, and the annotated PGN to download. The result belongs to
 * one game (start FEN + moves); the page drops it when the game changes.
 */
import type { GameAnalysis, MoveAnalysis, SideSummary } from '../src/analysis/analyse-game.js';
import { formatEval } from '../src/analysis/analyse-game.js';
import { JUDGEMENT_NAG, type Judgement } from '../src/analysis/win-probability.js';
import { renderEvalGraph } from './eval-graph.js';
import { el } from './grid.js';

const moveLabel = (m: MoveAnalysis): string => `${m.moveNumber}${m.color === 'white' ? '.' : '...'} ${m.san}`;

function sideLine(name: string, s: SideSummary): string {
  const acc = Number.isFinite(s.accuracy) ? `${s.accuracy.toFixed(1)}%` : '–';
  const acpl = Number.isFinite(s.acpl) ? s.acpl.toFixed(0) : '–';
  const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${name}: accuracy ${acc}, ACPL ${acpl}, ${count(s.inaccuracies, 'inaccuracy').replace(/ys$/, 'ies')}, ${count(s.mistakes, 'mistake')}, ${count(s.blunders, 'blunder')}`;
}

export class AnalysisPanel {
  private result: { key: string; analysis: GameAnalysis } | null = null;
  private picked: number | null = null;
  private download: string | null = null;

  /** `onPick`: a ply was picked on the graph (the page shows that position and marks the move). */
  constructor(
    private readonly box: HTMLElement,
    private readonly onPick: (ply: number) => void,
  ) {}

  /** The analysis of the game `key` names, if it is the one shown. */
  analysisOf(key: string): GameAnalysis | null {
    return this.result?.key === key ? this.result.analysis : null;
  }

  /** Drops a shown analysis that belongs to another game than `key`. */
  dropUnless(key: string): void {
    if (this.result && this.result.key !== key) this.clear();
  }

  /** The shown analysis's judgement of a main-line ply, if it judged it. */
  judgementAt(ply: number): Judgement | undefined {
    return this.result?.analysis.moves[ply]?.judgement;
  }

  /** `??`, `?` or `?!` for a judged ply of the shown analysis. */
  nagAt(ply: number): string {
    const j = this.judgementAt(ply);
    return j ? JUDGEMENT_NAG[j] : '';
  }

  get pickedPly(): number | null {
    return this.picked;
  }

  progress(searched: number, total: number): void {
    this.clear();
    this.box.replaceChildren(el('p', { class: 'dim', 'data-testid': 'analysis-progress' }, `Analysing position ${searched}/${total}…`));
  }

  note(text: string, bad = false): void {
    this.clear();
    if (text) this.box.replaceChildren(el('p', { class: bad ? 'bad' : 'hint', 'data-testid': 'analysis-note' }, text));
  }

  clear(): void {
    this.result = null;
    this.picked = null;
    if (this.download) URL.revokeObjectURL(this.download);
    this.download = null;
    this.box.replaceChildren();
  }

  show(key: string, a: GameAnalysis): void {
    this.clear();
    this.result = { key, analysis: a };
    this.download = URL.createObjectURL(new Blob([a.pgn], { type: 'application/x-chess-pgn' }));
    this.render();
  }

  private pick(ply: number): void {
    this.picked = ply;
    this.render();
    this.onPick(ply);
  }

  private render(): void {
    if (!this.result) return;
    const a = this.result.analysis;
    const judged = a.moves.filter((m) => m.judgement);
    const picked = this.picked === null ? undefined : a.moves[this.picked];
    this.box.replaceChildren(
      renderEvalGraph(a, this.picked, (ply) => this.pick(ply)),
      el(
        'p',
        { class: 'dim', 'data-testid': 'analysis-pick' },
        picked
          ? `${moveLabel(picked)}${this.nagAt(this.picked!)}: ${formatEval(picked.evalAfter)} after, ${picked.best || '–'} was the engine's move (${formatEval(picked.evalBefore)})`
          : 'Click a point of the graph for its move.',
      ),
      el(
        'div',
        { 'data-testid': 'analysis-accuracy' },
        el('div', {}, sideLine('White', a.white)),
        el('div', {}, sideLine('Black', a.black)),
      ),
      el(
        'ul',
        { class: 'judged', 'data-testid': 'analysis-judged' },
        ...(judged.length === 0
          ? [el('li', { class: 'dim' }, 'No inaccuracies, mistakes or blunders.')]
          : judged.map((m) =>
              el(
                'li',
                { class: m.judgement! },
                `${moveLabel(m)}${JUDGEMENT_NAG[m.judgement!]} (${formatEval(m.evalAfter)}): ${m.best} was best`,
              ),
            )),
      ),
      el('a', { href: this.download!, download: 'annotated.pgn', 'data-testid': 'analysis-download' }, 'Download annotated PGN'),
      el('span', { class: 'dim' }, ' (also in the PGN box)'),
    );
  }
}
