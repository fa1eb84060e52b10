/** The page's elements (index.html) and its message line. */

const $ = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`page is missing #${id}`);
  return e as T;
};

export const ui = {
  board: $<HTMLDivElement>('board'),
  promo: $<HTMLDivElement>('promo'),
  status: $('status'),
  message: $('message'),
  mode: $<HTMLSelectElement>('mode'),
  strength: $<HTMLSelectElement>('strength'),
  backend: $<HTMLSelectElement>('backend'),
  evaluation: $<HTMLSelectElement>('evaluation'),
  newGame: $<HTMLButtonElement>('new'),
  newGame960: $<HTMLButtonElement>('new960'),
  undo: $<HTMLButtonElement>('undo'),
  flip: $<HTMLButtonElement>('flip'),
  go: $<HTMLButtonElement>('go'),
  stop: $<HTMLButtonElement>('stop'),
  evalText: $('eval'),
  evalFill: $('eval-fill'),
  depth: $('depth'),
  pv: $('pv'),
  thinking: $('thinking'),
  moves: $('moves'),
  fen: $<HTMLInputElement>('fen'),
  loadFen: $<HTMLButtonElement>('load-fen'),
  copyFen: $<HTMLButtonElement>('copy-fen'),
  pgn: $<HTMLTextAreaElement>('pgn'),
  loadPgn: $<HTMLButtonElement>('load-pgn'),
  copyPgn: $<HTMLButtonElement>('copy-pgn'),
  analyse: $<HTMLButtonElement>('analyse'),
  analysisNodes: $<HTMLSelectElement>('analysis-nodes'),
  analysisPanel: $('analysis-panel'),
  movePanel: $('move-panel'),
  piecePanel: $('piece-panel'),
  bnnPanel: $('bnn-panel-box'),
  nnuePanel: $('nnue-panel'),
  level: $<HTMLSelectElement>('level'),
  levelNote: $('level-note'),
  clock: $<HTMLSelectElement>('clock'),
  clocks: $('clocks'),
  clockWhite: $('clock-white'),
  clockBlack: $('clock-black'),
  mute: $<HTMLInputElement>('mute'),
  hint: $<HTMLButtonElement>('hint'),
  bestLine: $<HTMLButtonElement>('best-line'),
  navStart: $<HTMLButtonElement>('nav-start'),
  navBack: $<HTMLButtonElement>('nav-back'),
  navForward: $<HTMLButtonElement>('nav-forward'),
  navEnd: $<HTMLButtonElement>('nav-end'),
  moveForm: $<HTMLFormElement>('move-form'),
  moveInput: $<HTMLInputElement>('move-input'),
  opening: $('opening'),
};

export function showMessage(text: string, error = false): void {
  ui.message.textContent = text;
  ui.message.classList.toggle('error', error);
}

export function clearMessage(): void {
  showMessage('');
}
