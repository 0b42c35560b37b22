// The board's sounds, synthesised with Web Audio (no files): a wooden click for
// a move, a heavier double knock for a capture, two rising tones for a check,
// a short chord at the end of a game, two tones when a game against Kirin
// starts and three short beeps when the player's clock runs low. The audio
// context starts with the first sound (browsers allow sound only after a
// gesture).

type SoundKind = 'move' | 'capture' | 'check' | 'end' | 'start' | 'low-time';

export interface Sounds {
  play(kind: SoundKind): void;
}

/** Sounds that play while `enabled()` says so. */
export function createSounds(enabled: () => boolean): Sounds {
  let ac: AudioContext | null = null;
  let noise: AudioBuffer | null = null;

  const context = (): AudioContext | null => {
    if (ac) return ac;
    const Ctor = globalThis.AudioContext as typeof AudioContext | undefined;
    if (!Ctor) return null;
    ac = new Ctor();
    // 0.1 s of white noise: the body of a knock.
    noise = ac.createBuffer(1, Math.round(ac.sampleRate * 0.1), ac.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    return ac;
  };

  /** A knock: filtered noise with a fast decay, at `at` seconds from now. */
  const knock = (a: AudioContext, at: number, freq: number, gain: number): void => {
    const src = a.createBufferSource();
    src.buffer = noise;
    const filter = a.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = freq;
    filter.Q.value = 3;
    const g = a.createGain();
    const t = a.currentTime + at;
    g.gain.setValueAtTime(gain, t);
    g.gain.exponentialRampToValueAtTime(0.001, t + 0.09);
    src.connect(filter).connect(g).connect(a.destination);
    src.start(t);
    src.stop(t + 0.1);
  };

  /** A tone with a soft attack and decay. */
  const tone = (a: AudioContext, at: number, freq: number, length: number, gain: number): void => {
    const osc = a.createOscillator();
    osc.type = 'triangle';
    osc.frequency.value = freq;
    const g = a.createGain();
    const t = a.currentTime + at;
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(gain, t + 0.015);
    g.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(g).connect(a.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  };

  return {
    play(kind) {
      if (!enabled()) return;
      const a = context();
      if (!a) return;
      if (a.state === 'suspended') void a.resume();
      switch (kind) {
        case 'move':
          knock(a, 0, 1400, 0.9);
          break;
        case 'capture':
          knock(a, 0, 900, 1);
          knock(a, 0.06, 700, 0.8);
          break;
        case 'check':
          knock(a, 0, 1400, 0.7);
          tone(a, 0.03, 660, 0.18, 0.25);
          tone(a, 0.15, 880, 0.25, 0.25);
          break;
        case 'end':
          for (const [i, f] of [523.25, 659.25, 783.99].entries()) tone(a, i * 0.09, f, 0.6, 0.18);
          break;
        case 'start':
          tone(a, 0, 440, 0.25, 0.2);
          tone(a, 0.12, 659.25, 0.35, 0.2);
          break;
        case 'low-time':
          for (const at of [0, 0.2, 0.4]) tone(a, at, 1046.5, 0.1, 0.15);
          break;
      }
    },
  };
}
