/** Tuning of the completion confetti. */
const CONFETTI = {
  pieces: 160,
  colors: ["#7c5cff", "#22d3ee", "#22c55e", "#f59e0b", "#ec4899", "#e8eaf6"],
  gravity: 0.12,
  drag: 0.992,
  /** The last part of the run fades out. */
  fadeMs: 1200,
};

interface Piece {
  x: number;
  y: number;
  vx: number;
  vy: number;
  w: number;
  h: number;
  angle: number;
  spin: number;
  color: string;
}

/**
 * Canvas confetti over the whole page for `durationMs` (the spec's ~7 s),
 * independent of React so it keeps falling after the dialog closes. It never
 * takes clicks, is hidden from assistive tech, and is skipped when the person
 * asks for reduced motion or the browser has no 2D canvas. Returns a stop function.
 */
export function launchConfetti(durationMs: number): () => void {
  if (typeof document === "undefined" || typeof window === "undefined") return () => {};
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return () => {};
  const canvas = document.createElement("canvas");
  let ctx: CanvasRenderingContext2D | null = null;
  try {
    ctx = canvas.getContext("2d");
  } catch {
    ctx = null;
  }
  if (!ctx || typeof requestAnimationFrame !== "function") return () => {};
  canvas.className = "confetti-canvas";
  canvas.setAttribute("aria-hidden", "true");
  canvas.dataset.testid = "confetti";
  document.body.appendChild(canvas);

  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const resize = () => {
    canvas.width = Math.floor(window.innerWidth * ratio);
    canvas.height = Math.floor(window.innerHeight * ratio);
    ctx!.setTransform(ratio, 0, 0, ratio, 0, 0);
  };
  resize();
  window.addEventListener("resize", resize);

  const w = window.innerWidth;
  const pieces: Piece[] = Array.from({ length: CONFETTI.pieces }, (_, i) => {
    // Two bursts from the lower corners plus a shower from the top.
    const fromLeft = i % 3 === 0;
    const fromTop = i % 3 === 2;
    return {
      x: fromTop ? Math.random() * w : fromLeft ? 0 : w,
      y: fromTop ? -20 - Math.random() * 200 : window.innerHeight * 0.7,
      vx: fromTop ? (Math.random() - 0.5) * 2 : (fromLeft ? 1 : -1) * (4 + Math.random() * 7),
      vy: fromTop ? 1 + Math.random() * 2 : -(8 + Math.random() * 8),
      w: 6 + Math.random() * 6,
      h: 8 + Math.random() * 8,
      angle: Math.random() * Math.PI,
      spin: (Math.random() - 0.5) * 0.3,
      color: CONFETTI.colors[i % CONFETTI.colors.length]!,
    };
  });

  const start = performance.now();
  let frame = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(frame);
    window.removeEventListener("resize", resize);
    canvas.remove();
  };
  const draw = (now: number) => {
    const elapsed = now - start;
    if (elapsed >= durationMs) return stop();
    const c = ctx!;
    c.clearRect(0, 0, window.innerWidth, window.innerHeight);
    c.globalAlpha = Math.min(1, (durationMs - elapsed) / CONFETTI.fadeMs);
    for (const p of pieces) {
      p.vy += CONFETTI.gravity;
      p.vx *= CONFETTI.drag;
      p.vy *= CONFETTI.drag;
      p.x += p.vx;
      p.y += p.vy;
      p.angle += p.spin;
      c.save();
      c.translate(p.x, p.y);
      c.rotate(p.angle);
      c.fillStyle = p.color;
      c.fillRect(-p.w / 2, -p.h / 2, p.w, p.h * Math.abs(Math.cos(p.angle * 2)) + 1);
      c.restore();
    }
    frame = requestAnimationFrame(draw);
  };
  frame = requestAnimationFrame(draw);
  return stop;
}
