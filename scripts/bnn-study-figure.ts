/**
 * Draws the minimal-size study's figure (docs/bnn-study.svg) from the JSON that
 * `matrix-chess bnn study --json FILE` writes: networks by minimal neuron count, rook and
 * bishop stacked, and the distinct problems beside them. The study is deterministic, so the
 * same seed redraws the same file byte for byte.
 *
 * Usage: node dist/scripts/bnn-study-figure.js --json study.json [--out docs/bnn-study.svg]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCommandArgs } from '../src/cmdline/args.js';
import { UsageError, runScript } from '../src/cmdline/errors.js';
import { STUDY_MAX_NEURONS, studyRows, type StudyResult } from '../src/bnn/study.js';

const ROOK_COLOUR = '#b58863',
  BISHOP_COLOUR = '#6d8fb3',
  PROBLEM_COLOUR = '#7a9a62';

interface Panel {
  x: number;
  title: string;
  /** Per k = 1..8: stacked segments (count, colour). */
  stacks: Array<Array<[number, string]>>;
  max: number;
}

function bars(p: Panel, upperFrom: number): string {
  const width = 330,
    height = 220,
    top = 70,
    bw = width / STUDY_MAX_NEURONS;
  const scale = (n: number): number => (n / p.max) * height;
  const out: string[] = [`  <g transform="translate(${p.x},0)">`, `    <text x="0" y="${top - 22}" font-weight="bold">${p.title}</text>`];
  out.push(`    <line x1="0" y1="${top + height}" x2="${width}" y2="${top + height}" stroke="#555"/>`);
  p.stacks.forEach((segments, i) => {
    const k = i + 1,
      x = i * bw + 6;
    let y = top + height;
    let total = 0;
    for (const [n, colour] of segments) {
      if (n === 0) continue;
      const h = scale(n);
      y -= h;
      total += n;
      const dash = k >= upperFrom ? ' stroke="#333" stroke-dasharray="4 3"' : '';
      out.push(
        `    <rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(bw - 12).toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"${dash}/>`,
      );
    }
    if (total > 0)
      out.push(`    <text x="${(x + (bw - 12) / 2).toFixed(1)}" y="${(y - 5).toFixed(1)}" text-anchor="middle">${total}</text>`);
    out.push(`    <text x="${(x + (bw - 12) / 2).toFixed(1)}" y="${top + height + 18}" text-anchor="middle">${k}</text>`);
  });
  out.push(`    <text x="${width / 2}" y="${top + height + 38}" text-anchor="middle">minimal neurons k</text>`, '  </g>');
  return out.join('\n');
}

export function studyFigureSvg(r: StudyResult): string {
  const rows = studyRows(r);
  const rook = rows.find((x) => x.label.startsWith('rook'))!,
    bishop = rows.find((x) => x.label === 'bishop')!,
    problems = rows.find((x) => x.label === 'distinct problems')!;
  const ks = Array.from({ length: STUDY_MAX_NEURONS }, (_, i) => i + 1);
  const networks: Panel = {
    x: 20,
    title: `${r.networks.length} networks`,
    stacks: ks.map((k) => [
      [rook.counts[k], ROOK_COLOUR],
      [bishop.counts[k], BISHOP_COLOUR],
    ]),
    max: Math.max(...ks.map((k) => rook.counts[k] + bishop.counts[k])),
  };
  const distinct: Panel = {
    x: 410,
    title: `${r.problems.length} distinct (relevant bits, between bits) problems`,
    stacks: ks.map((k) => [[problems.counts[k], PROBLEM_COLOUR]]),
    max: Math.max(...ks.map((k) => problems.counts[k])),
  };
  const upper = r.problems.filter((p) => !p.proven).map((p) => p.neurons);
  const upperFrom = upper.length ? Math.min(...upper) : STUDY_MAX_NEURONS + 1;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="760" height="420" viewBox="0 0 760 420" font-family="Helvetica, Arial, sans-serif" font-size="13">',
    '  <title>BNN minimal-size study: own-byte neurons an exact network needs</title>',
    '  <rect width="760" height="420" fill="#ffffff"/>',
    '  <text x="20" y="26" font-size="16" font-weight="bold">Smallest exact network per target: seed neurons on the target\'s own line byte</text>',
    bars(networks, upperFrom),
    bars(distinct, upperFrom),
    `  <rect x="20" y="356" width="12" height="12" fill="${ROOK_COLOUR}"/><text x="38" y="367">rook</text>`,
    `  <rect x="90" y="356" width="12" height="12" fill="${BISHOP_COLOUR}"/><text x="108" y="367">bishop</text>`,
    `  <rect x="170" y="356" width="12" height="12" fill="#fff" stroke="#333" stroke-dasharray="4 3"/><text x="188" y="367">upper bound (annealing)</text>`,
    '  <text x="20" y="392" fill="#555">k = 1-3: exhaustive search; k = 4: proven (1-3 impossible, annealing found 4); k &#8805; 5: annealing upper bounds.</text>',
    `  <text x="20" y="410" fill="#555">matrix-chess bnn study --seed ${r.seed} --json FILE; node dist/scripts/bnn-study-figure.js --json FILE</text>`,
    '</svg>',
    '',
  ].join('\n');
}

await runScript('bnn-study-figure', () => {
  const { values } = parseCommandArgs('bnn-study-figure', process.argv.slice(2), { json: { type: 'string' }, out: { type: 'string' } }, 0);
  const json = values.json as string | undefined;
  if (!json) throw new UsageError('bnn-study-figure: --json FILE is required (written by matrix-chess bnn study --json FILE)');
  let result: StudyResult;
  try {
    result = JSON.parse(readFileSync(json, 'utf8')) as StudyResult;
  } catch (e) {
    throw new UsageError(`bnn-study-figure: cannot read ${json}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(result.problems) || !Array.isArray(result.networks))
    throw new UsageError(`bnn-study-figure: ${json} is not the output of bnn study --json`);
  const out = (values.out as string | undefined) ?? 'docs/bnn-study.svg';
  writeFileSync(out, studyFigureSvg(result));
  console.log(`bnn-study-figure: ${out}`);
});
