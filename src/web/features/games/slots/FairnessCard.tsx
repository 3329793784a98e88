import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../../../lib/api";
import { toast } from "../../../state/toast";
import { rotateSeed, setClientSeed, type Rotated, type SeedPair } from "./api";

/** The wallet's seed pair: the server seed's hash, the client seed (changeable), the next nonce, and rotation. */
export function FairnessCard({ wallet, seeds, onChanged }: { wallet: string; seeds: SeedPair | undefined; onChanged: () => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [revealed, setRevealed] = useState<Rotated | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (draft === null) return;
    setSaving(true);
    try {
      await setClientSeed(wallet, draft.trim());
      setDraft(null);
      onChanged();
      toast({ title: "Client seed saved", description: "Your next spins use it.", variant: "success" });
    } catch (err) {
      toast({ title: "Error", description: errorMessage(err, "Could not save the client seed"), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  const rotate = async () => {
    setRotating(true);
    try {
      setRevealed(await rotateSeed(wallet));
      onChanged();
    } catch (err) {
      toast({ title: "Error", description: errorMessage(err, "Could not rotate the seed"), variant: "destructive" });
    } finally {
      setRotating(false);
    }
  };

  return (
    <section className="card slots-fair stack" aria-labelledby="fair-title" data-testid="slots-fair">
      <h2 id="fair-title">Provably fair</h2>
      {!seeds ? (
        <p className="muted small">
          <span className="spinner" aria-hidden="true" /> Loading your seeds…
        </p>
      ) : (
        <>
          <p className="small">
            <span className="muted">Server seed SHA-256:</span> <code className="hash-cell">{seeds.serverSeedHash}</code>
          </p>
          <form className="seed-form" onSubmit={save}>
            <label className="field">
              <span>Client seed</span>
              <input
                className="input mono"
                value={draft ?? seeds.clientSeed}
                onChange={(e) => setDraft(e.target.value)}
                maxLength={64}
                pattern="[A-Za-z0-9_.\-]{1,64}"
                title="1-64 letters, digits, '_', '.' or '-'"
                spellCheck={false}
                autoComplete="off"
              />
            </label>
            <button className="btn btn-outline" type="submit" disabled={draft === null || draft.trim() === seeds.clientSeed || saving} aria-busy={saving}>
              Save
            </button>
          </form>
          <p className="small muted">Next nonce: {seeds.nextNonce}. Slots and the daily wheel share this seed pair and its nonces.</p>
          <button className="btn btn-outline" onClick={() => void rotate()} disabled={rotating} aria-busy={rotating} data-testid="rotate-seed">
            Reveal and rotate server seed
          </button>
          {revealed && (
            <p className="small" data-testid="revealed-seed">
              Revealed: <code className="hash-cell">{revealed.previousServerSeed}</code> (its SHA-256 is {revealed.previousServerSeedHash.slice(0, 16)}…, used for{" "}
              {revealed.previousNoncesUsed} outcome{revealed.previousNoncesUsed === 1 ? "" : "s"}). Check your spins on <Link to="/fair#verify">Provably Fair</Link>.
            </p>
          )}
        </>
      )}
    </section>
  );
}
