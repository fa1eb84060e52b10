/**
 * `matrix-chess match …`: command-line front end of the match runner. Parses options, loads
 * openings, runs the match with a progress line (TTY only), writes the PGN as games finish and
 * prints the report; report.ts words every line of it. A usage or setup mistake (bad flags,
 * openings, an engine that will not start) is a UsageError: one line and exit 2.
 */
import { accessSync, appendFileSync, constants, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { UsageError } from '../cmdline/errors.js';
import { progressEnabled } from '../cmdline/progress.js';
import { EngineError, type EngineSpec } from './uci-engine.js';
import { OpeningError, chess960Openings, loadOpenings, type Opening } from './openings.js';
import { START_FEN } from '../core/fen.js';
import { runMatch, tcText, type MatchConfig, type MatchResult } from './match.js';
import { MatchResumeError, checkResumedNames, readResumablePgn, type ResumedGame } from './resume.js';
import type { SprtConfig } from './stats.js';
import { formatReport, formatReportJson, gameLine, progressLine, readPgnSources, reportFromPgns, type MatchReport } from './report.js';
import type { DrawRule, ResignRule } from './adjudicate.js';

export const MATCH_USAGE = `usage: matrix-chess match --engine1 SPEC --engine2 SPEC [options]

  SPEC is one string of key=value words (quote values with spaces: arg='a b'):
    cmd=PATH           program to run (required)
    arg=ARG            one command-line argument (repeatable, in order)
    name=NAME          name for the report and PGN (default: the engine's id name)
    dir=PATH           working directory
    option.NAME=VALUE  UCI option sent with setoption (repeatable)
  e.g. --engine1 "cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1500"
       --engine2 "cmd=bin/matrix-chess arg=uci"

options:
  --tc BASE+INC        clock per game: base seconds + increment seconds per move (default 10+0.1)
  --games N            number of games (default 2); colour-reversed pairs share an opening
  --rounds N           N opening pairs, i.e. 2N games (instead of --games)
  --openings FILE      one opening per line: UCI moves or FEN/EPD (default data/openings/balanced.txt
                       when present, else the start position)
  --chess960           Chess960: seeded random start positions (one per colour-reversed pair) instead of
                       --openings; both engines get setoption UCI_Chess960 true
  --seed N             the Chess960 positions' seed (default 1)
  --pgn FILE           write all games as PGN (rewritten from the start of the match, unless --resume)
  --resume             keep the games already in the --pgn file (same engines, openings and time
                       control) and play only the missing ones; an incomplete last game is played again
  --concurrency N      games at once, two engine processes each (default 1)
  --tolerance MS       a move may arrive this late past the flag (default 100)
  --max-plies N        adjudicate a draw after N plies (default 600)
  --resign score=CP moves=N              both engines see one side down CP for N moves each
  --draw movenumber=M score=CP moves=N   both engines within ±CP for N moves each, from move M
  --sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   stop when the GSPRT LLR crosses a bound
  --event TEXT         PGN Event tag (default "Matrix Chess match")
  --log FILE           log all UCI traffic
  --verbose            print one line per finished game
  --json               print the final result as JSON instead of the text report

       matrix-chess match --report FILE.pgn[.gz] [FILE ...] [--json]
  the report of games already played, from the PGN files of one or more runs between the same two
  engines (e.g. two halves played side by side), summed as one match; pairs stay within a file`;

/** Splits "a=1 b='x y' c=\"z\"" into words, honouring single and double quotes. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  let cur = '',
    quote = '',
    any = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (quote) throw new UsageError(`match: unclosed ${quote} quote in '${text}'`);
  if (cur || any) out.push(cur);
  return out;
}

export function parseEngineSpec(text: string, flag: string): EngineSpec {
  const spec: EngineSpec = { name: '', cmd: '', args: [], options: [] };
  for (const word of splitWords(text)) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag}: expected key=value, got '${word}' (keys: cmd, arg, name, dir, option.NAME)`);
    const key = word.slice(0, eq),
      value = word.slice(eq + 1);
    if (key === 'cmd') spec.cmd = value;
    else if (key === 'arg') spec.args.push(value);
    else if (key === 'name') spec.name = value;
    else if (key === 'dir') spec.cwd = value;
    else if (key.startsWith('option.') && key.length > 7) spec.options.push([key.slice(7), value]);
    else throw new UsageError(`${flag}: unknown key '${key}' (keys: cmd, arg, name, dir, option.NAME)`);
  }
  if (!spec.cmd) throw new UsageError(`${flag}: missing cmd=PROGRAM`);
  return spec;
}

export function parseTimeControl(text: string): { baseMs: number; incMs: number } {
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(text);
  if (!m) throw new UsageError(`match --tc: expected BASE+INC in seconds like 10+0.1, got '${text}'`);
  const baseMs = Math.round(Number(m[1]) * 1000),
    incMs = Math.round(Number(m[2] ?? 0) * 1000);
  if (baseMs <= 0) throw new UsageError(`match --tc: the base time must be positive, got '${text}'`);
  return { baseMs, incMs };
}

/** key=value words for --sprt/--resign/--draw, checked against the allowed keys. */
function parseKeyValues(flag: string, words: string[], allowed: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of words) {
    const [k, v] = w.split('=');
    if (!allowed.includes(k) || v === undefined || v === '' || !Number.isFinite(Number(v))) {
      throw new UsageError(`${flag}: expected ${allowed.map((a) => a + '=NUMBER').join(' ')}, got '${w}'`);
    }
    out.set(k, Number(v));
  }
  return out;
}

function need(flag: string, m: Map<string, number>, key: string): number {
  const v = m.get(key);
  if (v === undefined) throw new UsageError(`${flag}: missing ${key}=NUMBER`);
  return v;
}

/** An SPRT's `elo0=A elo1=B [alpha=0.05] [beta=0.05]`, checked: elo1 above elo0, alpha and beta in (0, 0.5). */
export function parseSprtConfig(flag: string, text: string): SprtConfig {
  const kv = parseKeyValues(flag, splitWords(text), ['elo0', 'elo1', 'alpha', 'beta']);
  const cfg = { elo0: need(flag, kv, 'elo0'), elo1: need(flag, kv, 'elo1'), alpha: kv.get('alpha') ?? 0.05, beta: kv.get('beta') ?? 0.05 };
  if (!(cfg.elo1 > cfg.elo0)) throw new UsageError(`${flag}: elo1 must be greater than elo0`);
  if (!(cfg.alpha > 0 && cfg.alpha < 0.5 && cfg.beta > 0 && cfg.beta < 0.5))
    throw new UsageError(`${flag}: alpha and beta must be between 0 and 0.5`);
  return cfg;
}

export interface MatchOptions {
  config: Omit<MatchConfig, 'onGame' | 'log'>;
  openingsSource: string;
  pgnPath?: string;
  /** Continue the match in pgnPath (`--resume`). */
  resume: boolean;
  logPath?: string;
  verbose: boolean;
  json: boolean;
}

/** Flags followed by key=value words (separate arguments or one quoted string). */
const WORD_FLAGS = new Set(['--resign', '--draw', '--sprt']);

/**
 * Gathers the words after --resign/--draw/--sprt, up to the next --flag, into that flag's value,
 * so the flag parser sees one value per flag.
 */
function groupWordFlags(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    out.push(args[i]);
    if (!WORD_FLAGS.has(args[i])) continue;
    const words: string[] = [];
    while (i + 1 < args.length && !args[i + 1].startsWith('--')) words.push(args[++i]);
    if (words.length) out.push(words.join(' '));
  }
  return out;
}

const MATCH_FLAGS = {
  engine1: { type: 'string' },
  engine2: { type: 'string' },
  tc: { type: 'string' },
  games: { type: 'string' },
  rounds: { type: 'string' },
  openings: { type: 'string' },
  pgn: { type: 'string' },
  log: { type: 'string' },
  concurrency: { type: 'string' },
  tolerance: { type: 'string' },
  'max-plies': { type: 'string' },
  event: { type: 'string' },
  verbose: { type: 'boolean' },
  json: { type: 'boolean' },
  resign: { type: 'string' },
  draw: { type: 'string' },
  sprt: { type: 'string' },
  chess960: { type: 'boolean' },
  seed: { type: 'string' },
  resume: { type: 'boolean' },
} as const;

const MAX_COUNT = 1_000_000_000;

export function parseMatchArgs(args: string[]): MatchOptions {
  const { values } = parseCommandArgs('match', groupWordFlags(args), MATCH_FLAGS, 0);
  const str = (name: string): string | undefined => values[name] as string | undefined;
  const count = (name: string, min = 1): number | undefined =>
    str(name) === undefined ? undefined : parseIntIn(`match --${name}`, str(name), min, MAX_COUNT);
  const e1 = str('engine1') === undefined ? undefined : parseEngineSpec(str('engine1')!, 'match --engine1');
  const e2 = str('engine2') === undefined ? undefined : parseEngineSpec(str('engine2')!, 'match --engine2');
  const tc = str('tc') === undefined ? { baseMs: 10_000, incMs: 100 } : parseTimeControl(str('tc')!);
  const rounds = count('rounds');
  const games = rounds !== undefined ? 2 * rounds : (count('games') ?? 2);
  const concurrency = count('concurrency') ?? 1,
    toleranceMs = count('tolerance', 0) ?? 100,
    maxPlies = count('max-plies') ?? 600;
  let openingsPath = str('openings');
  const pgnPath = str('pgn'),
    logPath = str('log');
  const event = str('event') ?? 'Matrix Chess match',
    verbose = values.verbose === true,
    json = values.json === true;
  let resign: ResignRule | undefined, draw: DrawRule | undefined, sprtCfg: SprtConfig | undefined;
  const words = (name: string): string[] => splitWords(str(name) ?? '');
  if (str('resign') !== undefined) {
    const flag = 'match --resign',
      kv = parseKeyValues(flag, words('resign'), ['score', 'moves']);
    resign = { score: need(flag, kv, 'score'), moves: need(flag, kv, 'moves') };
  }
  if (str('draw') !== undefined) {
    const flag = 'match --draw',
      kv = parseKeyValues(flag, words('draw'), ['movenumber', 'score', 'moves']);
    draw = { moveNumber: need(flag, kv, 'movenumber'), score: need(flag, kv, 'score'), moves: need(flag, kv, 'moves') };
  }
  if (str('sprt') !== undefined) sprtCfg = parseSprtConfig('match --sprt', str('sprt')!);
  const resume = values.resume === true;
  if (resume && !pgnPath) throw new UsageError('match --resume: needs --pgn FILE, the match to continue');
  if (!e1) throw new UsageError('match: missing --engine1 "cmd=PROGRAM …"');
  if (!e2) throw new UsageError('match: missing --engine2 "cmd=PROGRAM …"');

  const chess960 = values.chess960 === true;
  if (chess960 && openingsPath !== undefined) throw new UsageError('match --chess960 makes its own openings; do not give --openings too');
  if (!chess960 && str('seed') !== undefined) throw new UsageError('match --seed: the seed is for --chess960 start positions');
  let openings: Opening[];
  let openingsSource: string;
  if (chess960) {
    const seed = count('seed', 0) ?? 1;
    openings = chess960Openings(Math.ceil(games / 2), seed);
    openingsSource = `Chess960, ${openings.length} random start positions (seed ${seed})`;
    // The runner speaks king-takes-rook castling to both engines.
    for (const e of [e1, e2]) e.options.unshift(['UCI_Chess960', 'true']);
  } else {
    if (!openingsPath && existsSync('data/openings/balanced.txt')) openingsPath = 'data/openings/balanced.txt';
    if (openingsPath) {
      openings = loadOpenings(openingsPath);
      openingsSource = openingsPath;
    } else {
      openings = [{ fen: START_FEN, moves: [] }];
      openingsSource = 'start position';
    }
  }
  return {
    config: {
      engines: [e1, e2],
      openings,
      ...(chess960 ? { chess960 } : {}),
      games,
      tc,
      toleranceMs,
      concurrency,
      resign,
      draw,
      sprt: sprtCfg,
      maxPlies,
      event,
      site: 'localhost',
    },
    openingsSource,
    pgnPath,
    resume,
    logPath,
    verbose,
    json,
  };
}

export async function runMatchCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(MATCH_USAGE + '\n');
    return 0;
  }
  if (args.includes('--report')) return runReportCommand(args);
  let opts: MatchOptions;
  let resumed: ResumedGame[] = [];
  // The resumed file's complete games, written back once the engines are known to be the same
  // (so a refused run leaves the file as it was); null when the file needs no rewriting.
  let rewrite: string | null = null,
    droppedNote = '';
  try {
    opts = parseMatchArgs(args);
    if (opts.pgnPath && opts.resume && existsSync(opts.pgnPath)) {
      const text = readFileSync(opts.pgnPath, 'utf8');
      const read = readResumablePgn(text, opts.pgnPath, opts.config);
      resumed = read.games;
      if (read.keptText !== text) rewrite = read.keptText;
      if (read.droppedTail) droppedNote = `match --resume: ${opts.pgnPath}: ${read.droppedTail}; it is played again\n`;
      accessSync(opts.pgnPath, constants.W_OK);
    } else if (opts.pgnPath) writeFileSync(opts.pgnPath, '');
    if (opts.logPath) writeFileSync(opts.logPath, '');
  } catch (e) {
    if (e instanceof OpeningError) throw new UsageError(`match: ${e.message}`);
    if (e instanceof MatchResumeError) throw new UsageError(e.message);
    const io = e as NodeJS.ErrnoException;
    if (io.code && io.path) throw new UsageError(`match: cannot write '${io.path}': ${io.code}`);
    throw e;
  }
  const { config } = opts;
  const tc = tcText(config.tc);
  const showProgress = progressEnabled();
  const t0 = Date.now();
  const cfg: MatchConfig = {
    ...config,
    done: resumed.map(({ white: _white, black: _black, ...g }) => g),
    onStart: (names) => {
      checkResumedNames(resumed, names, opts.pgnPath ?? '');
      if (rewrite !== null && opts.pgnPath) writeFileSync(opts.pgnPath, rewrite);
      if (droppedNote) process.stderr.write(droppedNote);
      rewrite = null;
      droppedNote = '';
    },
    log: opts.logPath ? (name, dir, line) => appendFileSync(opts.logPath!, `${Date.now() - t0} ${name} ${dir} ${line}\n`) : undefined,
    onGame: (g, totals) => {
      if (opts.pgnPath) appendFileSync(opts.pgnPath, g.pgn);
      const done = totals.games.length;
      if (opts.verbose) process.stdout.write(gameLine(g, totals.names) + '\n');
      if (showProgress) {
        const elapsed = (Date.now() - t0) / 1000;
        const played = done - resumed.length;
        const eta = played > 0 ? (elapsed / played) * (config.games - done) : 0;
        process.stderr.write(`\r\x1b[K${progressLine(totals, config.games, elapsed, eta)}`);
      }
    },
  };
  let result: MatchResult;
  try {
    result = await runMatch(cfg);
  } catch (e) {
    if (showProgress) process.stderr.write('\r\x1b[K');
    if (e instanceof EngineError) throw new UsageError(`match: ${e.message}`);
    if (e instanceof MatchResumeError) throw new UsageError(e.message);
    throw e;
  }
  if (showProgress) process.stderr.write('\r\x1b[K');
  if (opts.json) process.stdout.write(formatReportJson(result));
  else {
    process.stdout.write(formatReport(result, { tc, openings: opts.openingsSource, sprt: config.sprt, resumed: resumed.length }) + '\n');
  }
  return 0;
}

/** `match --report FILE…`: the report of finished games, read from match PGNs (plain or .gz). */
function runReportCommand(args: string[]): number {
  const { values, positionals } = parseCommandArgs(
    'match --report',
    args,
    { report: { type: 'boolean' }, json: { type: 'boolean' } },
    Infinity,
  );
  const sources = readPgnSources(positionals);
  let report: MatchReport;
  try {
    report = reportFromPgns(sources);
  } catch (e) {
    if (e instanceof MatchResumeError) throw new UsageError(e.message);
    throw e;
  }
  for (const note of report.notes) process.stderr.write(note + '\n');
  const r = report.result;
  if (values.json === true) process.stdout.write(formatReportJson(r));
  else {
    const openings = `from ${sources.length === 1 ? sources[0].name : `${sources.length} PGN files`}`;
    process.stdout.write(formatReport(r, { tc: report.timeControls.join(' and '), openings }) + '\n');
  }
  return 0;
}
