/**
 * The new-order sound: a short two-tone chime made with Web Audio (no sound file to ship).
 * Browsers let a page start audio only after the user has interacted with it (the autoplay
 * rule): the AudioContext is created and resumed on the first click or key press, and until then
 * `chime()` plays nothing and says so — the board shows that the sound is waiting for a click.
 */

type AudioContextClass = typeof AudioContext;

let context: AudioContext | null = null;
let arming: (() => void) | null = null;
const waiting = new Set<() => void>();

function audioClass(): AudioContextClass | null {
  const w = globalThis as typeof globalThis & { webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

/** Whether a chime would be heard now. */
export function soundReady(): boolean {
  return context?.state === 'running';
}

/**
 * Waits for the user's first interaction to unlock audio; `onReady` runs once it is unlocked.
 * Returns a function that stops waiting (for this caller).
 */
export function armSound(onReady: () => void): () => void {
  if (soundReady()) {
    onReady();
    return () => undefined;
  }
  waiting.add(onReady);
  if (!arming && audioClass()) {
    const unlock = () => {
      const Audio = audioClass();
      if (!Audio) return;
      context ??= new Audio();
      void context.resume().then(() => {
        if (context?.state !== 'running') return;
        window.removeEventListener('pointerdown', unlock, true);
        window.removeEventListener('keydown', unlock, true);
        arming = null;
        for (const fn of [...waiting]) fn();
        waiting.clear();
      });
    };
    window.addEventListener('pointerdown', unlock, true);
    window.addEventListener('keydown', unlock, true);
    arming = unlock;
  }
  return () => waiting.delete(onReady);
}

/** Plays the chime; false when audio is not unlocked yet (or not available). */
export function chime(): boolean {
  if (context?.state !== 'running') return false;
  const start = context.currentTime;
  // Two short notes, 880 Hz then 1320 Hz, each fading out: audible over a kitchen, not shrill.
  [880, 1320].forEach((frequency, i) => {
    const ctx = context as AudioContext;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const at = start + i * 0.18;
    osc.type = 'sine';
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.3, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.17);
  });
  return true;
}
