/**
 * Move and capture sounds, made with WebAudio oscillators (no sound files): a short high click
 * for a move, a lower, longer knock for a capture. The context starts on first use (browsers
 * allow audio only after a user gesture; before that the sound is silently skipped).
 */
let ctx: AudioContext | null = null;
let muted = false;

export function setMuted(value: boolean): void {
  muted = value;
}

export function isMuted(): boolean {
  return muted;
}

/** Plays the sound of a move (`capture`: a piece was taken). Never throws. */
export function playMoveSound(capture: boolean): void {
  if (muted || typeof AudioContext !== 'function') return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const t = ctx.currentTime;
    const osc = ctx.createOscillator(),
      gain = ctx.createGain();
    osc.type = capture ? 'triangle' : 'sine';
    osc.frequency.setValueAtTime(capture ? 220 : 660, t);
    osc.frequency.exponentialRampToValueAtTime(capture ? 110 : 440, t + (capture ? 0.12 : 0.06));
    const length = capture ? 0.16 : 0.08;
    gain.gain.setValueAtTime(0.25, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length);
  } catch {
    // No audio on this device: moves are silent.
  }
}
