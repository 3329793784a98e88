import { useCallback, useEffect, useState } from "react";

/** The games' sounds: each is made here with Web Audio (no sound files). */
export type Cue = "tick" | "bet" | "start" | "cashout" | "crash" | "finish" | "win";

/** One tone of a cue: when it starts and how long it lasts (s), its pitch (Hz, gliding to `to`), its wave and loudness. */
interface Tone {
  at: number;
  dur: number;
  hz: number;
  to?: number;
  wave: OscillatorType | "noise";
  gain: number;
}

/** Every cue as tones, in one place (short and quiet: a stream's own audio stays on top). */
export const CUES: Record<Cue, Tone[]> = {
  tick: [{ at: 0, dur: 0.06, hz: 880, wave: "square", gain: 0.05 }],
  bet: [{ at: 0, dur: 0.08, hz: 660, to: 990, wave: "triangle", gain: 0.08 }],
  start: [
    { at: 0, dur: 0.12, hz: 523, wave: "triangle", gain: 0.12 },
    { at: 0.1, dur: 0.35, hz: 784, to: 1046, wave: "triangle", gain: 0.12 },
  ],
  cashout: [
    { at: 0, dur: 0.1, hz: 1046, wave: "sine", gain: 0.14 },
    { at: 0.08, dur: 0.25, hz: 1568, wave: "sine", gain: 0.12 },
  ],
  crash: [
    { at: 0, dur: 0.5, hz: 0, wave: "noise", gain: 0.18 },
    { at: 0, dur: 0.45, hz: 180, to: 40, wave: "sawtooth", gain: 0.12 },
  ],
  finish: [
    { at: 0, dur: 0.14, hz: 659, wave: "triangle", gain: 0.12 },
    { at: 0.14, dur: 0.14, hz: 784, wave: "triangle", gain: 0.12 },
    { at: 0.28, dur: 0.4, hz: 1046, wave: "triangle", gain: 0.12 },
  ],
  win: [
    { at: 0, dur: 0.1, hz: 784, wave: "sine", gain: 0.14 },
    { at: 0.1, dur: 0.1, hz: 988, wave: "sine", gain: 0.14 },
    { at: 0.2, dur: 0.1, hz: 1175, wave: "sine", gain: 0.14 },
    { at: 0.3, dur: 0.45, hz: 1568, wave: "sine", gain: 0.14 },
  ],
};

/** localStorage key of the mute toggle ("on" or "off"); absent: the page's default. */
export const SOUND_KEY = "vvx.sound";

/** The stored choice, or null when the person never chose. */
export function storedSound(): boolean | null {
  try {
    const v = localStorage.getItem(SOUND_KEY);
    return v === "on" ? true : v === "off" ? false : null;
  } catch {
    return null; // storage refused (a sandboxed frame): the default applies
  }
}

function storeSound(on: boolean): void {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // storage refused: the choice lasts for this page only
  }
}

/** The part of Web Audio the board uses (a test passes its own). */
export type AudioContextLike = Pick<AudioContext, "currentTime" | "state" | "destination" | "sampleRate" | "resume" | "createOscillator" | "createGain" | "createBuffer" | "createBufferSource">;

/**
 * Plays cues on one AudioContext, made at the first cue that plays (a browser starts it only after
 * the person touched the page, unless the page may autoplay, as an OBS browser source may).
 */
export class SoundBoard {
  private ctx: AudioContextLike | null = null;
  private noise: AudioBuffer | null = null;
  private lastAt = new Map<Cue, number>();

  constructor(private readonly makeContext: () => AudioContextLike | null = defaultContext) {}

  /** Plays `cue` now; the same cue at most every 120 ms (ten cash-outs at once are one chime). */
  play(cue: Cue): void {
    const now = performance.now();
    if (now - (this.lastAt.get(cue) ?? -Infinity) < 120) return;
    this.lastAt.set(cue, now);
    const ctx = (this.ctx ??= this.makeContext());
    if (!ctx) return;
    if (ctx.state === "suspended") void ctx.resume().catch(() => undefined);
    for (const tone of CUES[cue]) this.tone(ctx, tone);
  }

  private tone(ctx: AudioContextLike, t: Tone): void {
    const start = ctx.currentTime + t.at;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(t.gain, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + t.dur);
    gain.connect(ctx.destination);
    if (t.wave === "noise") {
      const src = ctx.createBufferSource();
      src.buffer = this.noiseBuffer(ctx);
      src.connect(gain);
      src.start(start);
      src.stop(start + t.dur);
      return;
    }
    const osc = ctx.createOscillator();
    osc.type = t.wave;
    osc.frequency.setValueAtTime(t.hz, start);
    if (t.to) osc.frequency.exponentialRampToValueAtTime(t.to, start + t.dur);
    osc.connect(gain);
    osc.start(start);
    osc.stop(start + t.dur);
  }

  /** Half a second of noise (the crash), made once; fixed values, not random, so it sounds the same each time. */
  private noiseBuffer(ctx: AudioContextLike): AudioBuffer {
    if (this.noise) return this.noise;
    const length = Math.floor(ctx.sampleRate * 0.5);
    const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    let x = 0x2545f491;
    for (let i = 0; i < length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      data[i] = ((x >>> 0) / 0xffffffff) * 2 - 1;
    }
    return (this.noise = buffer);
  }
}

function defaultContext(): AudioContextLike | null {
  const Ctor = typeof window === "undefined" ? undefined : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  return Ctor ? new Ctor() : null;
}

/** The page's one board. */
export const sounds = new SoundBoard();

/**
 * Whether the page plays sounds: the stored mute toggle, else `defaultOn` (on for game pages, off for
 * embeds). `allowed` false (an embed without ?sound=1) keeps it silent whatever is stored.
 */
export function useSound(defaultOn: boolean, allowed = true) {
  const [on, setOn] = useState(() => allowed && (storedSound() ?? defaultOn));
  useEffect(() => setOn(allowed && (storedSound() ?? defaultOn)), [allowed, defaultOn]);
  const toggle = useCallback(() => {
    storeSound(!on);
    setOn(!on);
    // The click is the gesture a browser waits for: a cue now confirms the sound is on.
    if (!on) sounds.play("bet");
  }, [on]);
  const play = useCallback((cue: Cue) => on && sounds.play(cue), [on]);
  return { on, toggle, play };
}

/**
 * The countdown's last three seconds as ticks: `endsAt` is when it ends on `clock` (ms), null when no
 * countdown runs. Re-armed whenever the end moves (a new round, a correction from the server).
 */
export function useCountdownTicks(endsAt: number | null, clock: () => number, play: (cue: Cue) => void): void {
  useEffect(() => {
    if (endsAt === null) return;
    const timers = [3000, 2000, 1000].map((before) => endsAt - before - clock()).filter((wait) => wait >= 0).map((wait) => setTimeout(() => play("tick"), wait));
    return () => timers.forEach(clearTimeout);
    // Rounded to 100 ms: the server's corrections each second must not re-arm ticks already due.
  }, [endsAt === null ? null : Math.round(endsAt / 100), play]); // eslint-disable-line react-hooks/exhaustive-deps
}
