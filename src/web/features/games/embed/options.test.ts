import { describe, expect, test } from "bun:test";
import { EMBED_DEFAULTS, embedUrl, iframeSnippet, parseEmbedOptions, playUrl } from "./options";

const WALLET = "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe";

describe("embed options", () => {
  test("no query string: the defaults (opaque, dark, scale 1, no wallet, ref, QR or sound)", () => {
    expect(parseEmbedOptions("")).toEqual({ options: EMBED_DEFAULTS, problems: [] });
  });

  test("every option read from the query string", () => {
    const { options, problems } = parseEmbedOptions(`?transparent=1&theme=light&scale=1.5&wallet=${WALLET}&ref=stream_42&qr=1&sound=true`);
    expect(problems).toEqual([]);
    expect(options).toEqual({ transparent: true, theme: "light", scale: 1.5, wallet: WALLET, ref: "stream_42", qr: true, sound: true });
  });

  test("a value it cannot use keeps the default and is named in a problem", () => {
    const { options, problems } = parseEmbedOptions("?transparent=maybe&theme=blue&scale=9&wallet=bob&ref=a%20b&qr=2");
    expect(options).toEqual(EMBED_DEFAULTS);
    expect(problems).toEqual([
      "?transparent must be 1 or 0 (got 'maybe').",
      "?qr must be 1 or 0 (got '2').",
      "?theme must be dark or light (got 'blue').",
      "?scale must be a number from 0.5 to 3 (got '9').",
      "?wallet must be an XRP Ledger address starting with r (got 'bob').",
      "?ref must be 1 to 32 letters, digits, - or _ (got 'a b').",
    ]);
    expect(parseEmbedOptions("?scale=").problems).toEqual(["?scale must be a number from 0.5 to 3 (got '')."]);
    expect(parseEmbedOptions("?scale=0.5").options.scale).toBe(0.5);
  });

  test("embedUrl writes only what differs from the defaults, and reads back the same", () => {
    expect(embedUrl("https://vvx.example", "crash", {})).toBe("https://vvx.example/embed/crash");
    const chosen = { transparent: true, theme: "light" as const, scale: 2, wallet: WALLET, ref: "abc", qr: true, sound: true };
    const url = embedUrl("https://vvx.example", "racing", chosen);
    expect(url.startsWith("https://vvx.example/embed/racing?")).toBe(true);
    expect(parseEmbedOptions(new URL(url).search).options).toEqual(chosen);
  });

  test("the 'Play at' link carries the ref; the iframe snippet sets its own colour scheme (transparent on dark pages)", () => {
    expect(playUrl("https://vvx.example", "racing", "x_1")).toBe("https://vvx.example/games/unicorn-racing?ref=x_1");
    expect(playUrl("https://vvx.example", "crash", null)).toBe("https://vvx.example/games/crash");
    const html = iframeSnippet("https://vvx.example/embed/crash?transparent=1&ref=a", { width: 800, height: 560 }, "crash", true);
    expect(html).toBe(
      '<iframe src="https://vvx.example/embed/crash?transparent=1&amp;ref=a" width="800" height="560" style="border:0;background:transparent;color-scheme:light" allow="autoplay" title="VVX Crash live"></iframe>',
    );
  });
});
