import { SLOT_PACKAGES } from "../../../../engine";

const fmt = new Intl.NumberFormat("en-US");

/** The spec's four packages; buying opens the payment dialog. */
export function PackageChooser({ onBuy, busyIndex, disabled, afterBonus }: { onBuy: (tierIndex: number) => void; busyIndex: number | null; disabled: boolean; afterBonus?: boolean }) {
  return (
    <section className="card slots-packages" aria-labelledby="packages-title" data-testid="slots-packages">
      <h2 id="packages-title">Buy spins</h2>
      <p className="muted small">
        Pay in VVX from your wallet. Your session starts as soon as the payment is validated on the ledger
        {afterBonus ? ", and its spins are played after your Bonus spins." : "."}
      </p>
      <div className="package-grid">
        {SLOT_PACKAGES.map((p) => (
          <article key={p.index} className={`package${p.spinCostVvx >= 10_000 ? " package-high" : ""}`} data-testid={`package-${p.index}`}>
            <h3>{p.name}</h3>
            <p className="package-price">{fmt.format(p.amountVvx)} VVX</p>
            <p className="muted small">
              {p.spins} spins · {fmt.format(p.spinCostVvx)} VVX each
            </p>
            <button className="btn btn-primary" onClick={() => onBuy(p.index)} disabled={disabled || busyIndex !== null} aria-busy={busyIndex === p.index}>
              {busyIndex === p.index && <span className="spinner" aria-hidden="true" />}
              Buy {p.name}
            </button>
          </article>
        ))}
      </div>
    </section>
  );
}
