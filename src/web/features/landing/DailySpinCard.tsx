import { lazy, Suspense, useEffect, useRef, useState } from "react";

// The wheel's code (and its styles) load only once the card scrolls into view: the landing page stays light.
const DailyWheel = lazy(() => import("./DailyWheel"));

/** The landing page's daily spin wheel card: a placeholder until it is on screen, then the wheel. */
export function DailySpinCard() {
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el || visible) return;
    if (typeof IntersectionObserver === "undefined") return setVisible(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setVisible(true), { rootMargin: "200px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [visible]);

  return (
    <section className="container section" aria-labelledby="daily-spin-title">
      <div ref={box} className="card daily-spin-card" data-testid="daily-spin-card" data-loaded={visible}>
        <h2 id="daily-spin-title" className="section-title">
          Daily Spin
        </h2>
        <p className="muted">Spin the wheel once a day for free VVX Slots spins. Come back every day to grow your streak.</p>
        {visible ? (
          <Suspense fallback={<WheelPlaceholder />}>
            <DailyWheel />
          </Suspense>
        ) : (
          <WheelPlaceholder />
        )}
      </div>
    </section>
  );
}

function WheelPlaceholder() {
  return (
    <div className="daily-wheel-placeholder" role="status" aria-label="Loading the daily wheel" style={{ minHeight: 340, display: "grid", placeItems: "center" }}>
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
