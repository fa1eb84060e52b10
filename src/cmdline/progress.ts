/**
 * Progress with an ETA for long commands, on stderr. Only on an interactive terminal, and never
 * under CI, so pipes and logs stay clean.
 */
export interface Progress {
  /** `detail` (e.g. "game 3/100") is shown after the ETA. */
  update(done: number, total: number, detail?: string): void;
  finish(): void;
}

const SILENT: Progress = { update() {}, finish() {} };

export function progressEnabled(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY) && !process.env.CI;
}

/** `from`: work already done before this run (a resumed job), left out of the rate the ETA uses. */
export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, from = 0): Progress {
  if (!progressEnabled(stream)) return SILENT;
  const t0 = Date.now();
  let shown = false;
  return {
    update(done, total, detail) {
      const elapsed = (Date.now() - t0) / 1000;
      const eta = done > from ? (elapsed * (total - done)) / (done - from) : NaN;
      const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
      stream.write(
        `\r\x1b[K${label}: ${done}/${total} (${pct}%) elapsed ${formatSeconds(elapsed)}, ETA ${Number.isFinite(eta) ? formatSeconds(eta) : '?'}${detail ? `, ${detail}` : ''}`,
      );
      shown = true;
    },
    finish() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}
