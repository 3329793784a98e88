import type { Browser, Frame, Page } from "playwright-core";

/** A box in screenshot pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A text's box with the colour of its fill and of its outline (r, g, b). */
export interface TextBox extends Box {
  fill: [number, number, number];
  outline: [number, number, number];
  text: string;
}

/** How a text reads over what is behind it: its edge pixels that touch its outline, and the measured contrast. */
export interface OutlineResult {
  text: string;
  /** Pixels of the text's fill colour. */
  fillPixels: number;
  /** The fill's edge pixels (a 4-neighbour is not fill). */
  edges: number;
  /** Share of edge pixels with an outline-coloured pixel within 2 px. */
  outlined: number;
  /** Contrast ratio (WCAG) between the mean fill pixel and the mean outline pixel next to the edges. */
  contrast: number;
}

/**
 * Pixel measurements of screenshots, made by Chromium itself in a blank page of the test's browser
 * (it decodes the PNGs: no image library).
 */
export class PixelLab {
  private constructor(private readonly page: Page) {}

  static async open(browser: Browser): Promise<PixelLab> {
    const context = await browser.newContext();
    return new PixelLab(await context.newPage());
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }

  /** Share of the box's pixels equal (within 6 per channel) to the host page's: its own picture (a screenshot of it alone) or its one colour. */
  async hostShare(shot: Buffer, host: Buffer | readonly [number, number, number], box: Box): Promise<number> {
    return this.page.evaluate(
      async ({ a, b, colour, box }) => {
        const x = await pixelsOf(a, box);
        const y = b ? await pixelsOf(b, box) : null;
        const at = (i: number, k: number) => (y ? y[i + k]! : colour![k]!);
        let same = 0;
        for (let i = 0; i < x.length; i += 4) if (Math.abs(x[i]! - at(i, 0)) <= 6 && Math.abs(x[i + 1]! - at(i, 1)) <= 6 && Math.abs(x[i + 2]! - at(i, 2)) <= 6) same++;
        return same / (x.length / 4);

        async function pixelsOf(png: string, r: typeof box) {
          const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
          const c = new OffscreenCanvas(r.width, r.height).getContext("2d")!;
          c.drawImage(img, -r.x, -r.y);
          return c.getImageData(0, 0, r.width, r.height).data;
        }
      },
      { a: shot.toString("base64"), b: Buffer.isBuffer(host) ? host.toString("base64") : null, colour: Buffer.isBuffer(host) ? null : host, box },
    );
  }

  /**
   * For each text box: whether its glyphs are outlined (edge pixels touching the outline colour) and at
   * what contrast. Measured over a host picture with no colour near the texts' fills or outlines (the
   * busy page), so every fill or outline pixel found is the embed's own.
   */
  async outlines(shot: Buffer, texts: TextBox[]): Promise<OutlineResult[]> {
    return this.page.evaluate(
      async ({ a, texts }) => {
        const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${a}`)).blob());
        const lum = (c: number[]) => {
          const [r, g, bl] = c.map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
        };
        return texts.map((t) => {
          const w = Math.max(1, Math.round(t.width));
          const h = Math.max(1, Math.round(t.height));
          const c = new OffscreenCanvas(w, h).getContext("2d")!;
          c.drawImage(img, -Math.round(t.x), -Math.round(t.y));
          const px = c.getImageData(0, 0, w, h).data;
          const dist = (i: number, col: number[]) => Math.hypot(px[i]! - col[0]!, px[i + 1]! - col[1]!, px[i + 2]! - col[2]!);
          const fill = new Uint8Array(w * h);
          const line = new Uint8Array(w * h);
          for (let p = 0; p < w * h; p++) {
            if (dist(p * 4, t.fill) < 60) fill[p] = 1;
            else if (dist(p * 4, t.outline) < 90) line[p] = 1;
          }
          let fillPixels = 0;
          let edges = 0;
          let outlined = 0;
          const sumFill = [0, 0, 0];
          const sumLine = [0, 0, 0];
          let nLine = 0;
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
              const p = y * w + x;
              if (!fill[p]) continue;
              fillPixels++;
              for (let k = 0; k < 3; k++) sumFill[k]! += px[p * 4 + k]!;
              const edge = x === 0 || y === 0 || x === w - 1 || y === h - 1 || !fill[p - 1] || !fill[p + 1] || !fill[p - w] || !fill[p + w];
              if (!edge) continue;
              edges++;
              let found = false;
              for (let dy = -2; dy <= 2 && !found; dy++)
                for (let dx = -2; dx <= 2 && !found; dx++) {
                  const xx = x + dx;
                  const yy = y + dy;
                  if (xx < 0 || yy < 0 || xx >= w || yy >= h || !line[yy * w + xx]) continue;
                  found = true;
                  for (let k = 0; k < 3; k++) sumLine[k]! += px[(yy * w + xx) * 4 + k]!;
                  nLine++;
                }
              if (found) outlined++;
            }
          const meanFill = sumFill.map((v) => v / Math.max(1, fillPixels));
          const meanLine = sumLine.map((v) => v / Math.max(1, nLine));
          const [hi, lo] = [lum(meanFill), lum(meanLine)].sort((p, q) => q - p);
          return { text: t.text, fillPixels, edges, outlined: edges ? outlined / edges : 0, contrast: nLine ? (hi! + 0.05) / (lo! + 0.05) : 0 };
        });
      },
      { a: shot.toString("base64"), texts },
    );
  }

  /** The RGBA pixels of a box (for a QR decoder). */
  async rgba(shot: Buffer, box: Box): Promise<Uint8ClampedArray> {
    const data = await this.page.evaluate(
      async ({ a, box }) => {
        const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${a}`)).blob());
        const c = new OffscreenCanvas(box.width, box.height).getContext("2d")!;
        c.drawImage(img, -box.x, -box.y);
        return [...c.getImageData(0, 0, box.width, box.height).data];
      },
      { a: shot.toString("base64"), box },
    );
    return new Uint8ClampedArray(data);
  }
}

/** The WCAG contrast ratio of two CSS colours (rgb()/rgba() as computed styles give them). */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const lum = (c: [number, number, number]) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * What an embed's frame shows, read inside it: boxes that are cut by their clipping box (partly
 * outside it) or whose text is cut short, texts under 10 px, and each text with its colour, its
 * outline (transparent) or the opaque background behind it, and its box on screen.
 */
export function inspectEmbed(frame: Frame) {
  return frame.evaluate(() => {
    type RGB = [number, number, number];
    const parse = (css: string): { rgb: RGB; a: number } => {
      const m = css.match(/rgba?\(([^)]+)\)/);
      if (!m) return { rgb: [0, 0, 0], a: 0 };
      const parts = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return { rgb: [parts[0]!, parts[1]!, parts[2]!], a: parts[3] ?? 1 };
    };
    const W = innerWidth;
    const H = innerHeight;
    const cut: string[] = [];
    const small: string[] = [];
    const texts: { text: string; color: RGB; outline: RGB | null; background: RGB | null; box: { x: number; y: number; width: number; height: number } }[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${(el.textContent ?? "").trim().slice(0, 30)}"`;
    const root = document.querySelector("main.embed")!;
    const clear = root.classList.contains("embed-clear");
    if (document.documentElement.scrollWidth > W || document.documentElement.scrollHeight > H) cut.push("the document scrolls");
    for (const el of root.querySelectorAll<HTMLElement>("*")) {
      if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
      const style = getComputedStyle(el);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let clip = { l: 0, t: 0, r: W, b: H };
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const ar = a.getBoundingClientRect();
        clip = { l: Math.max(clip.l, ar.left), t: Math.max(clip.t, ar.top), r: Math.min(clip.r, ar.right), b: Math.min(clip.b, ar.bottom) };
      }
      const inside = r.left >= clip.l - 0.5 && r.right <= clip.r + 0.5 && r.top >= clip.t - 0.5 && r.bottom <= clip.b + 0.5;
      const hidden = r.right <= clip.l + 0.5 || r.left >= clip.r - 0.5 || r.bottom <= clip.t + 0.5 || r.top >= clip.b - 0.5;
      if (!inside && !hidden) cut.push(`${name(el)} is cut by its box`);
      if (hidden) continue;
      const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent!.trim()).map((n) => n.textContent!.trim()).join(" ");
      if (!own) continue;
      if ((style.overflowX !== "visible" || style.textOverflow === "ellipsis") && el.scrollWidth > el.clientWidth + 1) cut.push(`${name(el)} is cut short`);
      if (Number.parseFloat(style.fontSize) < 10) small.push(`${name(el)} at ${style.fontSize}`);
      // The opaque background behind the text: the first ancestor's colour that is not transparent, blended over the ones beneath.
      let background: RGB | null = null;
      if (!clear) {
        const layers: { rgb: RGB; a: number }[] = [];
        for (let a: Element | null = el; a; a = a.parentElement) {
          const c = parse(getComputedStyle(a).backgroundColor);
          if (c.a > 0) layers.push(c);
          if (c.a >= 1) break;
        }
        let acc: RGB = [0, 0, 0];
        for (const layer of layers.reverse()) acc = acc.map((v, k) => v * (1 - layer.a) + layer.rgb[k]! * layer.a) as RGB;
        background = acc;
      }
      // The box of its own text (not of an icon or a child next to it).
      const rects = [...el.childNodes]
        .filter((n) => n.nodeType === 3 && n.textContent!.trim())
        .map((n) => {
          const range = document.createRange();
          range.selectNodeContents(n);
          return range.getBoundingClientRect();
        });
      const x0 = Math.min(...rects.map((b) => b.left));
      const y0 = Math.min(...rects.map((b) => b.top));
      const box = { x: x0, y: y0, width: Math.max(...rects.map((b) => b.right)) - x0, height: Math.max(...rects.map((b) => b.bottom)) - y0 };
      texts.push({ text: own, color: parse(style.color).rgb, outline: clear ? parse(style.webkitTextStrokeColor).rgb : null, background, box: { x: box.x, y: box.y, width: box.width, height: box.height } });
    }
    return { cut, small, texts };
  });
}
