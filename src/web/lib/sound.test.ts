import { describe, expect, test } from "bun:test";
import { CUES, SoundBoard, type AudioContextLike } from "./sound";

/** A Web Audio stand-in that records the tones started on it. */
function fakeContext() {
  const started: { wave: string; at: number; hz: number | null }[] = [];
  let resumed = 0;
  const param = () => ({ setValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const ctx = {
    currentTime: 10,
    state: "suspended" as AudioContextState,
    destination: {},
    sampleRate: 8000,
    resume: async () => void resumed++,
    createGain: () => ({ gain: param(), connect() {} }),
    createOscillator: () => {
      let hz: number | null = null;
      const o = {
        type: "sine",
        frequency: { setValueAtTime: (v: number) => void (hz = v), exponentialRampToValueAtTime() {} },
        connect() {},
        start: (at: number) => started.push({ wave: o.type, at, hz }),
        stop() {},
      };
      return o;
    },
    createBuffer: (_c: number, length: number) => ({ getChannelData: () => new Float32Array(length) }),
    createBufferSource: () => ({ buffer: null, connect() {}, start: (at: number) => started.push({ wave: "noise", at, hz: null }), stop() {} }),
  };
  return { ctx: ctx as unknown as AudioContextLike, started, resumed: () => resumed };
}

describe("the sound board", () => {
  test("a cue starts its tones at their offsets, and asks a suspended context to resume", () => {
    const f = fakeContext();
    new SoundBoard(() => f.ctx).play("crash");
    expect(f.started.map((s) => s.wave).sort()).toEqual(["noise", "sawtooth"]);
    expect(f.resumed()).toBe(1);
    const g = fakeContext();
    new SoundBoard(() => g.ctx).play("win");
    expect(g.started.map((s) => [s.hz, s.at])).toEqual(CUES.win.map((t) => [t.hz, 10 + t.at]));
  });

  test("the same cue twice within 120 ms plays once (a burst of cash-outs is one chime); another cue still plays", () => {
    const f = fakeContext();
    const board = new SoundBoard(() => f.ctx);
    board.play("cashout");
    board.play("cashout");
    board.play("tick");
    expect(f.started.length).toBe(CUES.cashout.length + CUES.tick.length);
  });

  test("without Web Audio nothing plays and nothing throws", () => {
    expect(() => new SoundBoard(() => null).play("start")).not.toThrow();
  });
});
