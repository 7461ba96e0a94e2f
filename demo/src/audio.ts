/**
 * Short music-box clips of public-domain melodies, synthesized as WAV (22 050 Hz, mono, 16-bit
 * PCM): each note is a sine with two overtones and a plucked envelope. A few seconds each, so
 * the music screens play something real without shipping recordings.
 */

export const SAMPLE_RATE = 22_050;

/** Semitones above C4 for jianpu-style degrees 1–7 (C major). */
const DEGREE: Record<string, number> = { '1': 0, '2': 2, '3': 4, '4': 5, '5': 7, '6': 9, '7': 11 };

/**
 * A melody in a compact jianpu-like notation: `5` a note, `5'` an octave up, `5,` an octave
 * down, `0` a rest; `/2` after a note halves it, `*2` doubles it; notes separated by spaces.
 */
export interface Melody {
  notes: string;
  /** Seconds per beat. */
  beat: number;
}

interface Note {
  /** Semitones above C4, or null for a rest. */
  pitch: number | null;
  beats: number;
}

export function parseMelody(notes: string): Note[] {
  return notes
    .trim()
    .split(/\s+/)
    .map((token) => {
      const m = /^([0-7])([',]*)(?:([/*])(\d+))?$/.exec(token);
      if (!m) throw new Error(`bad note ${token}`);
      const [, degree, marks = '', op, n] = m;
      let beats = 1;
      if (op === '/') beats = 1 / Number(n);
      if (op === '*') beats = Number(n);
      if (degree === '0') return { pitch: null, beats };
      const octave = [...marks].reduce((o, c) => o + (c === "'" ? 12 : -12), 0);
      return { pitch: (DEGREE[degree as string] as number) + octave, beats };
    });
}

/** PCM samples of a melody, in [-1, 1]. */
export function renderMelody(melody: Melody, transpose = 0): Float32Array {
  const notes = parseMelody(melody.notes);
  const total = notes.reduce((s, n) => s + n.beats, 0) * melody.beat + 0.6;
  const out = new Float32Array(Math.ceil(total * SAMPLE_RATE));
  let t = 0;
  for (const note of notes) {
    const length = note.beats * melody.beat;
    if (note.pitch !== null) {
      const freq = 261.63 * 2 ** ((note.pitch + transpose) / 12);
      const start = Math.round(t * SAMPLE_RATE);
      // The note rings on past its length, as a music box's tine does.
      const ring = Math.min(out.length - start, Math.round((length + 0.5) * SAMPLE_RATE));
      for (let i = 0; i < ring; i++) {
        const s = i / SAMPLE_RATE;
        const env = Math.min(1, s / 0.005) * Math.exp(-s * 3.2);
        const w = 2 * Math.PI * freq * s;
        const v =
          Math.sin(w) + 0.35 * Math.sin(2 * w) * Math.exp(-s * 6) + 0.12 * Math.sin(3 * w) * Math.exp(-s * 9);
        out[start + i] = (out[start + i] as number) + 0.32 * env * v;
      }
    }
    t += length;
  }
  // Fade the tail so the clip ends without a click.
  const fade = Math.round(0.05 * SAMPLE_RATE);
  for (let i = 0; i < fade; i++) out[out.length - 1 - i] = (out[out.length - 1 - i] as number) * (i / fade);
  return out;
}

/** A RIFF/WAVE file of 16-bit mono PCM. */
export function encodeWav(samples: Float32Array, sampleRate = SAMPLE_RATE): Buffer {
  const dataBytes = samples.length * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i] as number));
    buf.writeInt16LE(Math.round(v * 32767), 44 + i * 2);
  }
  return buf;
}

/** Duration in seconds of a PCM WAV (its data chunk over its byte rate); null when not one. */
export function wavDuration(buf: Buffer): number | null {
  if (buf.length < 44 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    return null;
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = buf.readUInt32LE(offset + 16);
    if (id === 'data') return byteRate > 0 ? size / byteRate : null;
    offset += 8 + size + (size % 2);
  }
  return null;
}

/** Public-domain melodies (folk songs and 19th-century tunes). */
export const MELODIES = {
  /** 茉莉花 (江苏民歌), the opening phrases. */
  molihua: {
    notes: "3/2 3/2 5/2 6/2 1'/2 1'/2 6/2 5/2 5 5/2 6/2 5*2 3/2 3/2 5/2 6/2 1'/2 1'/2 6/2 5/2 5 5/2 6/2 5*2",
    beat: 0.42,
  },
  /** 小星星 (Twinkle, Twinkle, Little Star). */
  xiaoxingxing: { notes: '1 1 5 5 6 6 5*2 4 4 3 3 2 2 1*2', beat: 0.36 },
  /** 欢乐颂 (Beethoven, Symphony No. 9). */
  huanlesong: { notes: '3 3 4 5 5 4 3 2 1 1 2 3 3 2 2*2', beat: 0.34 },
  /** 送别 (J. P. Ordway's melody; 李叔同's words). */
  songbie: { notes: "5 3/2 5/2 1'*2 6 1' 5*2 5 1/2 2/2 3 2/2 1/2 2*3", beat: 0.42 },
  /** 铃儿响叮当 (Jingle Bells). */
  linger: { notes: '3 3 3*2 3 3 3*2 3 5 1 2 3*3 0', beat: 0.3 },
  /** 两只老虎 (Frère Jacques). */
  liangzhilaohu: { notes: '1 2 3 1 1 2 3 1 3 4 5*2 3 4 5*2', beat: 0.34 },
} satisfies Record<string, Melody>;
