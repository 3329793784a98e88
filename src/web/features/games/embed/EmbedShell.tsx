import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from "react";
import { SoundToggle } from "../../../components/SoundToggle";
import { useSound } from "../../../lib/sound";
import { EMBED_GAMES, parseEmbedOptions, playUrl, type EmbedGame, type EmbedOptions } from "./options";
import "./embed.css";

/** The embed's options from its URL, read once. */
export function useEmbedOptions(): { options: EmbedOptions; problems: string[] } {
  return useMemo(() => parseEmbedOptions(window.location.search), []);
}

/** The game socket as an embed shows it: connecting at first, open, or offline (dropped, reconnecting). */
export type EmbedConnection = "connecting" | "open" | "offline";

/** An embed's sounds: off unless ?sound=1, then the stored mute toggle (on until muted). */
export function useEmbedSound(options: EmbedOptions) {
  return useSound(true, options.sound);
}

/**
 * The document of an embed: its own colour scheme and, when transparent, no background anywhere.
 * A framed page is painted opaque by Chromium when its `color-scheme` differs from the iframe
 * element's; a transparent embed declares `light`, the scheme of a page that declares none (and of
 * the builder's iframe snippet), whatever the host page's own scheme.
 */
function useEmbedDocument(options: EmbedOptions, title: string): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const before = { scheme: root.style.colorScheme, title: document.title };
    root.classList.add("embed-doc");
    root.classList.toggle("embed-doc-clear", options.transparent);
    root.style.colorScheme = options.transparent ? "light" : options.theme;
    document.title = `${title} live · VVX`;
    return () => {
      root.classList.remove("embed-doc", "embed-doc-clear");
      root.style.colorScheme = before.scheme;
      document.title = before.title;
    };
  }, [options.transparent, options.theme, title]);
}

/**
 * The frame every embed shares: a title line, the game's stage (canvas or lanes), its live table,
 * 'Play at' with the streamer's ref (and a QR code of it), the mute toggle with ?sound=1, the offline
 * badge (the figures dimmed while the socket is down), and any option it had to ignore, named.
 */
export function EmbedShell(props: {
  game: EmbedGame;
  options: EmbedOptions;
  problems: string[];
  connection: EmbedConnection;
  sound: { on: boolean; toggle: () => void };
  head: ReactNode;
  stage: ReactNode;
  side: ReactNode;
  testId: string;
}) {
  const { game, options, problems, connection } = props;
  useEmbedDocument(options, EMBED_GAMES[game].name);
  const play = playUrl(window.location.origin, game, options.ref);
  const shown = play.replace(/^https?:\/\//, "");
  const className = ["embed", `embed-${options.theme}`, options.transparent ? "embed-clear" : "", connection === "open" ? "" : "is-offline"].filter(Boolean).join(" ");
  return (
    <main className={className} data-testid={props.testId} data-connection={connection} style={{ "--embed-scale": options.scale } as CSSProperties}>
      <div className="embed-body">
        <header className="embed-head">{props.head}</header>
        <div className="embed-stage">{props.stage}</div>
        <section className="embed-side" aria-label="Live bets">
          {props.side}
        </section>
        <footer className="embed-foot">
          {options.sound && <SoundToggle on={props.sound.on} onToggle={props.sound.toggle} />}
          <a className="embed-play" href={play} target="_blank" rel="noopener noreferrer" data-testid="embed-play">
            Play at <strong>{shown}</strong>
          </a>
          {options.qr && <PlayQr url={play} />}
        </footer>
      </div>
      {connection !== "open" && (
        <p className="embed-badge" role="status" data-testid="embed-offline">
          {connection === "connecting" ? "Connecting…" : "Reconnecting…"}
        </p>
      )}
      {problems.length > 0 && (
        <ul className="embed-problems" role="alert" data-testid="embed-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </main>
  );
}

/** A QR code of the 'Play at' link (dark on white with its quiet zone, so a phone reads it over any stream). */
function PlayQr({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    // The package's browser build by path: `bun build --compile` bundles this page inside the server's bundle,
    // where "qrcode" already resolved to its Node entry (the sandbox's QR PNGs), whose renderers need `fs`.
    void import("qrcode/lib/browser").then(async (QR) => {
      const svg = await QR.toString(url, { type: "svg", margin: 2, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } });
      if (!cancelled) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      cancelled = true;
    };
  }, [url]);
  return src ? <img className="embed-qr" src={src} alt={`QR code of ${url}`} data-testid="embed-qr" /> : <span className="embed-qr" aria-hidden="true" />;
}

/**
 * How many rows of a list fit its box (measured: the box's height over a row's), for tables that
 * must never overflow a small frame; the list shows that many, the last as '+N more' when cut.
 * `narrow`: the box is under 17 em wide (a small frame), where the tables shorten what they show.
 */
export function useFitRows<T extends HTMLElement>(): { ref: RefObject<T | null>; fit: number; narrow: boolean } {
  const ref = useRef<T>(null);
  const [fit, setFit] = useState(0);
  const [narrow, setNarrow] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // Not laid out (hidden, or a DOM without layout): nothing to measure, every row is listed.
    if (el.clientWidth === 0 && el.clientHeight === 0) return setFit(Number.POSITIVE_INFINITY);
    const row = el.querySelector<HTMLElement>("[data-row]");
    const fontSize = Number.parseFloat(getComputedStyle(el).fontSize) || 12;
    const rowHeight = row?.getBoundingClientRect().height || fontSize * 1.5 + 1;
    const heading = el.querySelector<HTMLElement>(".embed-cols")?.getBoundingClientRect().height ?? 0;
    setFit(Math.max(0, Math.floor((el.clientHeight - heading + 0.5) / rowHeight)));
    setNarrow(el.clientWidth < NARROW_EM * fontSize);
  }, []);
  // After every render (the first rows give the real row height) and whenever the box changes size.
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);
  return { ref, fit, narrow };
}

/** Below this width (in em) a table is narrow (embed.css's `@container side (width < 17em)` says the same). */
const NARROW_EM = 17;

/** The rows to show when `fit` rows fit: all of them, or fit - 1 and how many were left out (nothing when not even that line fits). */
export function fitted<T>(rows: T[], fit: number): { shown: T[]; more: number } {
  if (rows.length <= fit) return { shown: rows, more: 0 };
  if (fit < 1) return { shown: [], more: 0 };
  const n = Math.max(0, fit - 1);
  return { shown: rows.slice(0, n), more: rows.length - n };
}

/** r1234…abcd: short enough for a small frame (rABC…xyz when narrow), long enough to recognise one's own. */
export const embedWallet = (w: string, narrow = false) => (w.length <= 10 ? w : narrow ? `${w.slice(0, 4)}…${w.slice(-3)}` : `${w.slice(0, 5)}…${w.slice(-4)}`);

/** XRP for the tables: up to 2 decimals, thousands grouped. */
export const xrp = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 2 });
