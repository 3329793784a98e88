import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { copyText } from "../../../lib/clipboard";
import { usePageTitle } from "../../../lib/usePageTitle";
import { EMBED_DEFAULTS, EMBED_GAMES, FRAME_RANGE, SCALE_RANGE, embedUrl, iframeSnippet, refProblem, walletProblem, type EmbedGame, type EmbedOptions, type EmbedTheme } from "./options";
import "./builder.css";

/** Frame sizes offered first (any size from 320x180 to 1920x1080 can be typed in). */
export const SIZE_PRESETS = [
  { id: "320x180", label: "320 × 180 (a corner)", width: 320, height: 180 },
  { id: "640x360", label: "640 × 360", width: 640, height: 360 },
  { id: "800x560", label: "800 × 560 (default)", width: 800, height: 560 },
  { id: "1280x720", label: "1280 × 720 (720p, full screen)", width: 1280, height: 720 },
  { id: "1920x1080", label: "1920 × 1080 (1080p, full screen)", width: 1920, height: 1080 },
] as const;

/** The preview's backdrop: what the stream behind a transparent embed might look like. */
const BACKDROPS = { checker: "Checkerboard", busy: "Busy video", dark: "Dark", light: "Light" } as const;
type Backdrop = keyof typeof BACKDROPS;

/** Why a typed frame size cannot be used (naming the field), or null. */
export function sizeProblem(field: "width" | "height", value: string): string | null {
  const [min, max] = field === "width" ? [FRAME_RANGE.minWidth, FRAME_RANGE.maxWidth] : [FRAME_RANGE.minHeight, FRAME_RANGE.maxHeight];
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? null : `${field === "width" ? "Width" : "Height"} must be a whole number of pixels from ${min} to ${max}.`;
}

/** What the builder's form holds: the game, the size (a preset or typed), the options and the typed wallet and ref. */
interface Choice {
  game: EmbedGame;
  preset: string;
  custom: { width: string; height: string };
  options: EmbedOptions;
  walletText: string;
  refText: string;
}

/** The embed a choice makes: its size and URL (an unusable field left out), and each field's problem. */
function resolve(c: Choice) {
  const widthProblem = c.preset === "custom" ? sizeProblem("width", c.custom.width) : null;
  const heightProblem = c.preset === "custom" ? sizeProblem("height", c.custom.height) : null;
  const chosen = SIZE_PRESETS.find((p) => p.id === c.preset);
  const size = chosen ?? { width: widthProblem ? 800 : Number(c.custom.width), height: heightProblem ? 560 : Number(c.custom.height) };
  const wallet = c.walletText.trim();
  const ref = c.refText.trim();
  const walletError = (wallet && walletProblem(wallet)) || null;
  const refError = (ref && refProblem(ref)) || null;
  const url = embedUrl(window.location.origin, c.game, { ...c.options, wallet: wallet && !walletError ? wallet : null, ref: ref && !refError ? ref : null });
  return { size, url, problems: { width: widthProblem, height: heightProblem, wallet: walletError, ref: refError } };
}

/**
 * /embed: the embed builder. A streamer chooses the game, the size and the options, sees the embed live
 * at that size over a backdrop of their choice, and copies the iframe for a web page or the URL for an
 * OBS browser source. Inputs that cannot be used are named under their field and left out of the URL.
 */
export default function EmbedBuilderPage() {
  usePageTitle("Stream embeds");
  const [choice, setChoice] = useState<Choice>({ game: "crash", preset: "800x560", custom: { width: "800", height: "560" }, options: EMBED_DEFAULTS, walletText: "", refText: "" });
  const [backdrop, setBackdrop] = useState<Backdrop>("checker");
  const { size, url, problems } = resolve(choice);
  const snippet = iframeSnippet(url, size, choice.game, choice.options.sound);

  return (
    <section className="container embed-builder">
      <header className="page-header">
        <p className="eyebrow">
          <Link to="/games">Games</Link> / Stream embeds
        </p>
        <h1>Put a game on your stream</h1>
        <p className="muted">
          A live view of a game for OBS or any web page: the round, the bets and cash-outs as they happen, and where your viewers play. Choose, look, copy.
        </p>
      </header>
      <div className="builder-layout">
        <OptionsForm choice={choice} problems={problems} onChange={setChoice} />
        <div className="builder-out stack">
          <div className="card stack">
            <div className="builder-preview-head">
              <h2>Preview</h2>
              <label>
                Behind it:{" "}
                <select className="input select" value={backdrop} onChange={(e) => setBackdrop(e.target.value as Backdrop)} aria-label="Preview backdrop">
                  {(Object.keys(BACKDROPS) as Backdrop[]).map((b) => (
                    <option key={b} value={b}>
                      {BACKDROPS[b]}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <Preview url={url} size={size} backdrop={backdrop} title={`${EMBED_GAMES[choice.game].name} live (preview)`} />
          </div>
          <CopyBox title="For a web page" testId="embed-snippet" text={snippet} note="Paste into your page's HTML. The iframe's colour-scheme keeps it transparent on dark pages too." />
          <CopyBox title="For OBS (Browser source)" testId="embed-obs-url" text={url} note={`URL above, Width ${size.width}, Height ${size.height}. OBS 31 or later.`} />
        </div>
      </div>
    </section>
  );
}

/** The builder's options: every field with its hint, or its problem named under it. */
function OptionsForm({ choice, problems, onChange }: { choice: Choice; problems: ReturnType<typeof resolve>["problems"]; onChange: (c: Choice) => void }) {
  const { game, preset, custom, options, walletText, refText } = choice;
  const update = (patch: Partial<Choice>) => onChange({ ...choice, ...patch });
  const set = <K extends keyof EmbedOptions>(key: K, value: EmbedOptions[K]) => update({ options: { ...options, [key]: value } });
  const { width: widthProblem, height: heightProblem, wallet: walletError, ref: refError } = problems;
  return (
    <form className="card builder-form stack" onSubmit={(e) => e.preventDefault()} aria-label="Embed options">
      <fieldset>
        <legend>Game</legend>
        {(Object.keys(EMBED_GAMES) as EmbedGame[]).map((g) => (
          <label key={g} className="builder-choice">
            <input type="radio" name="game" value={g} checked={game === g} onChange={() => update({ game: g })} /> {EMBED_GAMES[g].name}
          </label>
        ))}
      </fieldset>
      <Field label="Size" htmlFor="embed-size" hint="Your browser source's or iframe's width and height.">
        <select id="embed-size" className="input select" value={preset} onChange={(e) => update({ preset: e.target.value })} data-testid="embed-size">
          {SIZE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </Field>
      {preset === "custom" && (
        <div className="builder-pair">
          <Field label="Width (px)" htmlFor="embed-width" error={widthProblem}>
            <input id="embed-width" className="input" inputMode="numeric" value={custom.width} onChange={(e) => update({ custom: { ...custom, width: e.target.value } })} aria-invalid={!!widthProblem} />
          </Field>
          <Field label="Height (px)" htmlFor="embed-height" error={heightProblem}>
            <input id="embed-height" className="input" inputMode="numeric" value={custom.height} onChange={(e) => update({ custom: { ...custom, height: e.target.value } })} aria-invalid={!!heightProblem} />
          </Field>
        </div>
      )}
      <fieldset>
        <legend>Look</legend>
        <label className="builder-choice">
          <input type="checkbox" checked={options.transparent} onChange={(e) => set("transparent", e.target.checked)} data-testid="embed-transparent" /> Transparent background (outlined text, for overlays)
        </label>
        {(["dark", "light"] as EmbedTheme[]).map((t) => (
          <label key={t} className="builder-choice">
            <input type="radio" name="theme" value={t} checked={options.theme === t} onChange={() => set("theme", t)} /> {t === "dark" ? "Light text (dark theme)" : "Dark text (light theme)"}
          </label>
        ))}
      </fieldset>
      <Field label={`Text size: ${options.scale.toFixed(1)}×`} htmlFor="embed-scale" hint="Bigger text for a small corner of a 1080p stream, smaller to show more rows.">
        <input id="embed-scale" type="range" min={SCALE_RANGE.min} max={SCALE_RANGE.max} step={0.1} value={options.scale} onChange={(e) => set("scale", Number(e.target.value))} />
      </Field>
      <Field label="Your wallet (optional)" htmlFor="embed-wallet" hint="Your own bets are highlighted and listed first." error={walletError}>
        <input id="embed-wallet" className="input mono" value={walletText} onChange={(e) => update({ walletText: e.target.value })} placeholder="r…" spellCheck={false} autoComplete="off" aria-invalid={!!walletError} data-testid="embed-wallet" />
      </Field>
      <Field label="Referral code (optional)" htmlFor="embed-ref" hint="Added to the 'Play at' link and its QR code." error={refError}>
        <input id="embed-ref" className="input" value={refText} onChange={(e) => update({ refText: e.target.value })} spellCheck={false} autoComplete="off" aria-invalid={!!refError} data-testid="embed-ref" />
      </Field>
      <fieldset>
        <legend>Extras</legend>
        <label className="builder-choice">
          <input type="checkbox" checked={options.qr} onChange={(e) => set("qr", e.target.checked)} data-testid="embed-qr-option" /> QR code of the 'Play at' link
        </label>
        <label className="builder-choice">
          <input type="checkbox" checked={options.sound} onChange={(e) => set("sound", e.target.checked)} /> Sounds (OBS: tick 'Control audio via OBS')
        </label>
      </fieldset>
    </form>
  );
}

function Field({ label, htmlFor, hint, error, children }: { label: string; htmlFor: string; hint?: string; error?: string | null; children: ReactNode }) {
  return (
    <div className="builder-field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {error ? (
        <p className="error-text small" role="alert">
          {error}
        </p>
      ) : (
        hint && <p className="muted small">{hint}</p>
      )}
    </div>
  );
}

/** The embed at its real size, scaled down to the column's width, over the chosen backdrop. */
function Preview({ url, size, backdrop, title }: { url: string; size: { width: number; height: number }; backdrop: Backdrop; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(600);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setRoom(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const k = Math.min(1, room / size.width);
  return (
    <div ref={box} className="builder-preview-box stack">
      <div className={`builder-preview builder-backdrop-${backdrop}`} style={{ width: size.width * k, height: size.height * k }}>
        <iframe
          src={url}
          title={title}
          width={size.width}
          height={size.height}
          className="builder-frame"
          style={{ transform: `scale(${k})` }}
          data-testid="embed-preview"
        />
      </div>
      <p className="muted small">
        {size.width} × {size.height} px{k < 1 ? `, shown at ${Math.round(k * 100)}% to fit this page` : ""}.
      </p>
    </div>
  );
}

/** A read-only text with a Copy button (the clipboard API, or the selection where a browser refuses it). */
function CopyBox({ title, text, note, testId }: { title: string; text: string; note: string; testId: string }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [status, setStatus] = useState<"" | "copied" | "select">("");
  useEffect(() => setStatus(""), [text]);
  const copy = async () => {
    if (await copyText(text)) return setStatus("copied");
    area.current?.select();
    setStatus("select");
  };
  return (
    <div className="card stack builder-copy">
      <h2>{title}</h2>
      <textarea ref={area} className="input mono builder-text" readOnly value={text} rows={text.length > 120 ? 4 : 2} spellCheck={false} aria-label={title} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
      <div className="builder-copy-row">
        <button type="button" className="btn btn-primary" onClick={() => void copy()} data-testid={`${testId}-copy`}>
          Copy
        </button>
        <span role="status" className={status === "copied" ? "success-text" : "muted"}>
          {status === "copied" ? "Copied." : status === "select" ? "Your browser refused the clipboard: the text is selected, press Ctrl+C." : ""}
        </span>
      </div>
      <p className="muted small">{note}</p>
    </div>
  );
}
