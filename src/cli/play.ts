/**
 * `matrix-chess play`: the terminal game. Play White or Black against the engine, or watch it
 * play itself. Works the same whether a person types or a script pipes lines in: every prompt
 * reads one line, bad input gets a message and the prompt again, and `exit` or end of input
 * quits with status 0.
 */
import { checkEvalFile, evaluatorFor, parseEvalChoice } from './eval-flag.js';
import type { NnueEvaluator } from '../engine/nnue/evaluator.js';
import { backendLabel } from '../backends.js';
import { getBackend } from '../backends-node.js';
import type { LegalMoveGenerator } from '../core/backend.js';
import { moveFrom, moveTo } from '../core/move.js';
import { MoveError, legalMoveList, moveToSan, moveToUciIn, parseSan, parseUciMove } from '../core/notation.js';
import { CHESS960_POSITIONS, chess960StartFen } from '../core/chess960.js';
import { Sfc32 } from '../core/rng.js';
import { Position } from '../core/position.js';
import { FenError, START_FEN } from '../core/fen.js';
import { GAME_END_TEXT, gameStatus, type GameStatus } from '../core/status.js';
import { Engine, evaluate, type Score, type SearchResult } from '../engine/index.js';
import { parseCommandArgs, parseIntIn } from '../cmdline/args.js';
import { formatEval, renderBoard, sidebar, useColor } from '../cmdline/board.js';
import { UsageError } from '../cmdline/errors.js';
import { LineReader } from '../cmdline/lines.js';

export const PLAY_USAGE =
  'play [--mode white|black|self] [--depth N] [--fen FEN | --chess960 [--start N]] [--backend bitboard|matrix|bnn] [--eval classical|nnue] [--evalfile FILE] [--ascii]';

type Mode = 'white' | 'black' | 'self';
const MAX_DEPTH = 20;
const DEFAULT_DEPTH = 3;

const HELP = [
  'Enter moves in UCI (e2e4, e7e8q) or SAN (Nf3, exd5, O-O). Commands:',
  '  fen            print the position as FEN',
  '  setfen <FEN>   continue from a FEN position',
  '  legal          list the legal moves',
  '  moves          the moves of this game so far (SAN)',
  "  undo           take back your last move (and the bot's reply)",
  '  board          show the board again',
  '  reset          start again from the initial position',
  '  help           this list',
  '  exit           quit (end of input quits too)',
];

const SAN_LIKE = /^([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQ])?|O-O(-O)?|0-0(-0)?)[+#!?]*$/;
const UCI_LIKE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export interface PlayIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WriteStream;
}

export async function runPlayCommand(args: string[], io: PlayIo = { input: process.stdin, output: process.stdout }): Promise<void> {
  const { values } = parseCommandArgs(
    'play',
    args,
    {
      mode: { type: 'string' },
      depth: { type: 'string' },
      fen: { type: 'string' },
      chess960: { type: 'boolean', default: false },
      start: { type: 'string' },
      backend: { type: 'string', default: 'bitboard' },
      ascii: { type: 'boolean', default: false },
      eval: { type: 'string' },
      evalfile: { type: 'string' },
    },
    0,
  );
  let mode: Mode | undefined;
  if (values.mode !== undefined) {
    mode = parseMode(values.mode as string);
    if (!mode) throw new UsageError(`play --mode: '${values.mode}' is not a mode (expected white, black or self)`);
  }
  let depth = values.depth === undefined ? undefined : parseIntIn('play --depth', values.depth as string, 1, MAX_DEPTH);
  const chess960 = values.chess960 === true;
  if (values.start !== undefined && !chess960) throw new UsageError('play --start: a start position number needs --chess960');
  if (chess960 && values.fen !== undefined) throw new UsageError('play --chess960: give --start N (0-959) instead of --fen');
  // Chess960: numbered start (518 is the classical one) or a random one.
  const initialFen = chess960
    ? chess960StartFen(
        values.start === undefined
          ? Math.floor(new Sfc32(Date.now() >>> 0).nextFloat() * CHESS960_POSITIONS)
          : parseIntIn('play --start', values.start as string, 0, CHESS960_POSITIONS - 1),
      )
    : START_FEN;
  const pos = Position.fromFen((values.fen as string | undefined) ?? initialFen);
  const backend = await getBackend(values.backend as string);

  // The network is read before the terminal is: a bad file ends the command with nothing left open.
  const evalName = parseEvalChoice('play', values.eval as string | undefined),
    evalFile = values.evalfile as string | undefined;
  checkEvalFile('play', evalName, evalFile);
  const nnue = evaluatorFor(evalName, evalFile);
  const reader = new LineReader(io.input, io.output);
  const game = new TerminalGame(pos, backend, io, reader, values.ascii === true, chess960, initialFen);
  game.nnue = nnue;
  try {
    if (!mode) mode = await game.askMode();
    if (!mode) return;
    if (depth === undefined) depth = await game.askDepth();
    if (depth === undefined) return;
    await game.run(mode, depth);
  } finally {
    reader.close();
  }
}

function parseMode(text: string): Mode | undefined {
  switch (text.trim().toLowerCase()) {
    case '':
    case '1':
    case 'w':
    case 'white':
      return 'white';
    case '2':
    case 'b':
    case 'black':
      return 'black';
    case '3':
    case 's':
    case 'self':
    case 'watch':
    case 'bot':
      return 'self';
    default:
      return undefined;
  }
}

/** Quitting is signalled by a null line (exit command or end of input). */
class TerminalGame {
  /** The learned evaluation, or null for the classical one. */
  nnue: NnueEvaluator | null = null;
  private readonly color: boolean;
  private readonly echo: boolean;
  private engine!: Engine;
  private mode: Mode = 'white';
  private depth = DEFAULT_DEPTH;
  /** Side to move when the current game was set up (to know whose moves the undo stack holds). */
  private startSide = 0;
  /** The FEN the current game was set up from, to replay its moves as SAN. */
  private setupFen = START_FEN;
  private announced = false;

  constructor(
    private readonly pos: Position,
    private readonly backend: LegalMoveGenerator,
    private readonly io: PlayIo,
    private readonly reader: LineReader,
    private readonly ascii: boolean,
    /** UCI castles are king-takes-own-rook (e1h1); `reset` goes back to the 960 start. */
    private readonly chess960 = false,
    private readonly initialFen = START_FEN,
  ) {
    this.color = useColor(io.output);
    // Echo piped input after the prompt so a scripted session reads like a transcript.
    this.echo = !(io.input as NodeJS.ReadStream).isTTY;
  }

  private say(text = ''): void {
    this.io.output.write(text + '\n');
  }

  /** Prompts and returns the trimmed line; null means quit. */
  private async ask(prompt: string): Promise<string | null> {
    const line = await this.reader.next(prompt);
    if (line === null) {
      this.say(); // end the prompt line
      return null;
    }
    const t = line.trim();
    if (this.echo) this.say(t);
    if (t === 'exit' || t === 'quit') return null;
    return t;
  }

  async askMode(): Promise<Mode | undefined> {
    this.say('Matrix Chess');
    for (;;) {
      const line = await this.ask('Play as [1] White, [2] Black, or [3] watch bot vs bot? (default 1): ');
      if (line === null) return undefined;
      const mode = parseMode(line);
      if (mode) return mode;
      this.say(`'${line}' is not a choice: type 1, 2 or 3 (or white, black, self)`);
    }
  }

  async askDepth(): Promise<number | undefined> {
    for (;;) {
      const line = await this.ask(`Search depth 1-${MAX_DEPTH} (default ${DEFAULT_DEPTH}): `);
      if (line === null) return undefined;
      if (line === '') return DEFAULT_DEPTH;
      if (/^\d+$/.test(line) && Number(line) >= 1 && Number(line) <= MAX_DEPTH) return Number(line);
      this.say(`'${line}' is not a depth: type a whole number from 1 to ${MAX_DEPTH}`);
    }
  }

  async run(mode: Mode, depth: number): Promise<void> {
    this.mode = mode;
    this.depth = depth;
    const nnue = this.nnue;
    const evalText = nnue
      ? `${nnue.network.kind === 'residual' ? 'classical evaluation + network correction' : 'network evaluation'} (${nnue.network.hidden} hidden, ${nnue.kernel.name} kernel)`
      : 'classical evaluation';
    this.engine = new Engine({ moveGenerator: this.backend, nnue });
    this.engine.newGame();
    this.startSide = this.pos.side;
    this.setupFen = this.pos.toFen();
    const who = mode === 'self' ? 'the bot plays both sides' : `you play ${mode === 'white' ? 'White' : 'Black'}`;
    this.say(`New game: ${who}, search depth ${depth}, backend ${backendLabel(this.backend)}, ${evalText}. Type help for commands.`);
    this.show();
    for (;;) {
      const status = gameStatus(this.pos);
      if (status.over) {
        if (!this.announced) this.announce(status);
        this.announced = true;
      } else if (this.isBotTurn()) {
        this.botMove();
        continue;
      }
      const sideName = this.pos.side === 0 ? 'White' : 'Black';
      const prompt = status.over ? 'Game over (undo, reset, setfen, exit): ' : `${sideName} to move: `;
      const line = await this.ask(prompt);
      if (line === null) return;
      if (line === '') continue;
      this.handle(line, status);
    }
  }

  private isBotTurn(): boolean {
    return this.mode === 'self' || (this.mode === 'white') !== (this.pos.side === 0);
  }

  private humanSide(): number {
    return this.mode === 'black' ? 1 : 0;
  }

  private handle(line: string, status: GameStatus): void {
    const [word, ...rest] = line.split(/\s+/);
    switch (word.toLowerCase()) {
      case 'help':
      case '?':
        for (const h of HELP) this.say(h);
        return;
      case 'fen':
        this.say(this.pos.toFen());
        return;
      case 'board':
      case 'show':
        this.show();
        return;
      case 'legal':
        this.listLegal();
        return;
      case 'moves':
      case 'history':
        this.say(this.history() || 'no moves yet');
        return;
      case 'reset':
        this.setup(this.initialFen);
        return;
      case 'setfen':
        if (rest.length === 0) {
          this.say('setfen needs a FEN, e.g. setfen 8/8/8/8/8/8/8/K1k5 w - - 0 1');
          return;
        }
        this.setup(rest.join(' '));
        return;
      case 'undo':
        this.undo();
        return;
    }
    if (!UCI_LIKE.test(line) && !SAN_LIKE.test(line)) {
      this.say(`unknown command or move '${line}': type help for the list`);
      return;
    }
    if (status.over) {
      this.say(`the game is over (${GAME_END_TEXT[status.reason!]}): type undo, reset, setfen <FEN> or exit`);
      return;
    }
    let move: number;
    try {
      move = UCI_LIKE.test(line) ? parseUciMove(this.pos, line, this.chess960) : parseSan(this.pos, line);
    } catch (err) {
      if (err instanceof MoveError) {
        this.say(err.message);
        return;
      }
      throw err;
    }
    this.play(move);
  }

  private play(move: number): void {
    const san = moveToSan(this.pos, move),
      uci = moveToUciIn(this.pos, move, this.chess960);
    const mover = this.pos.side === 0 ? 'White' : 'Black';
    this.pos.makeMove(move);
    if (this.mode !== 'self' || !this.isBotTurn()) this.say(`${mover} plays ${uci} (${san})`);
  }

  private botMove(): void {
    const mover = this.pos.side === 0 ? 'White' : 'Black';
    const legal = legalMoveList(this.pos);
    let result: SearchResult;
    try {
      result = this.engine.search(this.pos, { depth: this.depth });
    } catch (err) {
      // A failing engine must not end the game: say so and play on.
      this.say(`the bot's search failed (${(err as Error).message.split('\n')[0]}); it plays a legal move instead`);
      result = { bestMove: legal[0], ponderMove: 0, score: { cp: 0 }, depth: 0, nodes: 0, timeMs: 0, pv: [] };
    }
    // Never trust a search result blindly: the move must be legal here.
    const move = legal.includes(result.bestMove) ? result.bestMove : legal[0];
    const san = moveToSan(this.pos, move),
      uci = moveToUciIn(this.pos, move, this.chess960);
    const evalText = formatScore(result.score, this.pos.side);
    this.pos.makeMove(move);
    this.say(
      `${mover} (bot) plays ${uci} (${san})  depth ${result.depth}  eval ${evalText}  nodes ${result.nodes}  time ${(result.timeMs / 1000).toFixed(2)}s`,
    );
    this.show();
  }

  private setup(fen: string): void {
    try {
      this.pos.setFen(fen);
    } catch (err) {
      if (err instanceof FenError) {
        this.say(err.message);
        return;
      }
      throw err;
    }
    this.engine.newGame();
    this.startSide = this.pos.side;
    this.setupFen = this.pos.toFen();
    this.announced = false;
    this.say(fen === this.initialFen ? 'Board reset.' : 'Position set.');
    this.show();
  }

  private undo(): void {
    if (this.mode === 'self') {
      this.say('undo is for games against the bot');
      return;
    }
    const human = this.humanSide();
    const ply = this.pos.ply;
    // The human has made a move if one of the recorded plies was theirs.
    const humanMoved = ply >= 2 || (ply === 1 && this.startSide === human);
    if (!humanMoved) {
      this.say('nothing to undo');
      return;
    }
    let undone = 0;
    while (this.pos.ply > 0) {
      this.pos.unmakeMove();
      undone++;
      if (this.pos.side === human) break;
    }
    this.announced = false;
    this.say(`Took back ${undone} ${undone === 1 ? 'move' : 'moves'}.`);
    this.show();
  }

  /** The game's moves in SAN with move numbers: "1. e4 e5 2. Nf3", "12... Kg8 13. Qh5". */
  private history(): string {
    const replay = Position.fromFen(this.setupFen);
    const parts: string[] = [];
    for (let i = 0; i < this.pos.ply; i++) {
      const move = this.pos.moveAt(i);
      if (replay.side === 0) parts.push(`${replay.fullmove}.`);
      else if (i === 0) parts.push(`${replay.fullmove}...`);
      parts.push(moveToSan(replay, move));
      replay.makeMove(move);
    }
    return parts.join(' ');
  }

  private listLegal(): void {
    const moves = legalMoveList(this.pos);
    if (moves.length === 0) {
      this.say('no legal moves');
      return;
    }
    const items = moves.map((m) => `${moveToUciIn(this.pos, m, this.chess960)} (${moveToSan(this.pos, m)})`).sort();
    this.say(`${moves.length} legal moves: ${items.join(', ')}`);
  }

  private announce(status: GameStatus): void {
    if (status.reason === 'checkmate') {
      this.say(`Checkmate: ${status.winner === 'white' ? 'White' : 'Black'} wins.`);
    } else {
      this.say(`Game over: ${GAME_END_TEXT[status.reason!]}.`);
    }
  }

  private show(): void {
    const status = gameStatus(this.pos);
    const ev = evaluate(this.pos);
    const evWhite = this.pos.side === 0 ? ev : -ev;
    const ply = this.pos.ply;
    const last = ply > 0 ? this.pos.moveAt(ply - 1) : 0;
    this.say(
      renderBoard(this.pos, {
        color: this.color,
        flipped: this.mode === 'black',
        ascii: this.ascii,
        lastFrom: ply > 0 ? moveFrom(last) : undefined,
        lastTo: ply > 0 ? moveTo(last) : undefined,
        sidebar: sidebar(this.pos, status.check, evWhite),
      }),
    );
  }
}

/** A search score (side to move's view) as text from White's view. */
function formatScore(score: Score, side: number): string {
  if ('mate' in score) {
    const m = side === 0 ? score.mate : -score.mate;
    return m > 0 ? `mate in ${m} for White` : `mate in ${-m} for Black`;
  }
  return formatEval(side === 0 ? score.cp : -score.cp);
}
