import { useCallback, useState } from "react";
import { EngineInputError } from "../../../engine";

function describeError(err: unknown): string {
  if (err instanceof EngineInputError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A check form's error line and the runner of its actions: `validate` gives the inputs or a message
 * for the person, `act` uses them; the engine's refusals are shown too, nothing is thrown.
 */
export function useCheckForm() {
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(<T,>(validate: () => T | string, act: (inputs: T) => void) => {
    setError(null);
    const inputs = validate();
    if (typeof inputs === "string") return setError(inputs);
    try {
      act(inputs);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  return { error, run };
}

/** The form's two actions: compute (submit) and replay. */
export function CheckActions({ submitLabel, onReplay }: { submitLabel: string; onReplay: () => void }) {
  return (
    <div className="field-wide row">
      <button className="btn btn-primary" type="submit">
        {submitLabel}
      </button>
      <button className="btn btn-outline" type="button" onClick={onReplay}>
        Replay
      </button>
    </div>
  );
}

/** What went wrong with the form's last action. */
export function CheckError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error-text" role="alert">
      {error}
    </p>
  );
}
