import { CLASSIC_ADDRESS } from "../../../../shared/channels";

/** The games a streamer can embed, with their live view and the page where viewers play. */
export const EMBED_GAMES = {
  crash: { name: "VVX Crash", embedPath: "/embed/crash", playPath: "/games/crash" },
  racing: { name: "Unicorn Racing", embedPath: "/embed/racing", playPath: "/games/unicorn-racing" },
} as const;
export type EmbedGame = keyof typeof EMBED_GAMES;

export type EmbedTheme = "dark" | "light";

/** What an embed's query string chooses (README: "Streaming the games"). */
export interface EmbedOptions {
  /** ?transparent=1: no background of its own; text outlined so it reads over any video. */
  transparent: boolean;
  /** ?theme=dark|light: light text with dark outlines, or dark text with light outlines. */
  theme: EmbedTheme;
  /** ?scale=: text size relative to the frame's own (0.5 to 3). */
  scale: number;
  /** ?wallet=: the streamer's own bets are highlighted. */
  wallet: string | null;
  /** ?ref=: carried into the 'Play at' link and its QR code. */
  ref: string | null;
  /** ?qr=1: a QR code of the 'Play at' link. */
  qr: boolean;
  /** ?sound=1: the game's sounds (off by default in embeds), with a mute toggle. */
  sound: boolean;
}

export const EMBED_DEFAULTS: EmbedOptions = { transparent: false, theme: "dark", scale: 1, wallet: null, ref: null, qr: false, sound: false };

/** The text scale a streamer may choose. */
export const SCALE_RANGE = { min: 0.5, max: 3 } as const;
/** The frame sizes the layout is made (and tested) for. */
export const FRAME_RANGE = { minWidth: 320, minHeight: 180, maxWidth: 1920, maxHeight: 1080 } as const;

const REF = /^[A-Za-z0-9_-]{1,32}$/;
const FLAGS: Record<string, boolean> = { "1": true, true: true, yes: true, "0": false, false: false, no: false, "": true };

/**
 * Reads an embed's options from its query string. A value it cannot use is ignored (the default
 * stays) and reported in `problems`, one sentence naming the parameter, which the embed shows.
 */
export function parseEmbedOptions(search: string): { options: EmbedOptions; problems: string[] } {
  const q = new URLSearchParams(search);
  const options: EmbedOptions = { ...EMBED_DEFAULTS };
  const problems: string[] = [];
  const flag = (name: "transparent" | "qr" | "sound") => {
    const raw = q.get(name);
    if (raw === null) return;
    const value = FLAGS[raw.toLowerCase()];
    if (value === undefined) problems.push(`?${name} must be 1 or 0 (got '${clip(raw)}').`);
    else options[name] = value;
  };
  flag("transparent");
  flag("qr");
  flag("sound");

  const theme = q.get("theme");
  if (theme !== null) {
    if (theme === "dark" || theme === "light") options.theme = theme;
    else problems.push(`?theme must be dark or light (got '${clip(theme)}').`);
  }
  const scale = q.get("scale");
  if (scale !== null) {
    const n = Number(scale);
    if (scale.trim() !== "" && Number.isFinite(n) && n >= SCALE_RANGE.min && n <= SCALE_RANGE.max) options.scale = n;
    else problems.push(`?scale must be a number from ${SCALE_RANGE.min} to ${SCALE_RANGE.max} (got '${clip(scale)}').`);
  }
  const wallet = q.get("wallet");
  if (wallet !== null && wallet !== "") {
    const problem = walletProblem(wallet);
    if (problem) problems.push(`?${problem}`);
    else options.wallet = wallet;
  }
  const ref = q.get("ref");
  if (ref !== null && ref !== "") {
    const problem = refProblem(ref);
    if (problem) problems.push(`?${problem}`);
    else options.ref = ref;
  }
  return { options, problems };
}

/** Why `text` is not a wallet to highlight (a sentence naming `wallet`), or null when it is one. */
export function walletProblem(text: string): string | null {
  return CLASSIC_ADDRESS.test(text) ? null : `wallet must be an XRP Ledger address starting with r (got '${clip(text)}').`;
}

/** Why `text` is not a referral code (a sentence naming `ref`), or null when it is one. */
export function refProblem(text: string): string | null {
  return REF.test(text) ? null : `ref must be 1 to 32 letters, digits, - or _ (got '${clip(text)}').`;
}

const clip = (text: string) => (text.length > 24 ? `${text.slice(0, 24)}…` : text);

/** The embed's URL with only the options that differ from the defaults. */
export function embedUrl(origin: string, game: EmbedGame, options: Partial<EmbedOptions>): string {
  const o = { ...EMBED_DEFAULTS, ...options };
  const q = new URLSearchParams();
  if (o.transparent) q.set("transparent", "1");
  if (o.theme !== EMBED_DEFAULTS.theme) q.set("theme", o.theme);
  if (o.scale !== EMBED_DEFAULTS.scale) q.set("scale", String(o.scale));
  if (o.wallet) q.set("wallet", o.wallet);
  if (o.ref) q.set("ref", o.ref);
  if (o.qr) q.set("qr", "1");
  if (o.sound) q.set("sound", "1");
  const query = q.toString();
  return `${origin}${EMBED_GAMES[game].embedPath}${query ? `?${query}` : ""}`;
}

/** Where viewers play: the game's page, with the streamer's ref when there is one. */
export function playUrl(origin: string, game: EmbedGame, ref: string | null): string {
  return `${origin}${EMBED_GAMES[game].playPath}${ref ? `?ref=${encodeURIComponent(ref)}` : ""}`;
}

/**
 * The iframe a streamer pastes into a web page. Its own `color-scheme: light` matters: Chromium paints a
 * framed page opaque when its colour scheme differs from the iframe element's, and a host page that
 * declares `color-scheme: dark` would otherwise turn a transparent embed into a white box.
 */
export function iframeSnippet(url: string, size: { width: number; height: number }, game: EmbedGame, sound: boolean): string {
  const title = `${EMBED_GAMES[game].name} live`;
  return `<iframe src="${escapeAttr(url)}" width="${size.width}" height="${size.height}" style="border:0;background:transparent;color-scheme:light"${sound ? ' allow="autoplay"' : ""} title="${escapeAttr(title)}"></iframe>`;
}

const escapeAttr = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
