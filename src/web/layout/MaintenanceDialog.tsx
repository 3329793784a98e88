import { useState } from "react";
import { Dialog } from "../components/Dialog";
import { useSiteConfig } from "../state/site";

/** The spec's critical-maintenance notice; opened only when the operator sets MAINTENANCE_NOTICE. */
export function MaintenanceDialog() {
  const { data } = useSiteConfig();
  const [dismissed, setDismissed] = useState(false);
  const open = Boolean(data?.maintenanceNotice) && !dismissed;
  const email = data?.supportEmail;
  return (
    <Dialog open={open} onClose={() => setDismissed(true)} title="Critical maintenance notice" dismissable={false} labelledBy="maintenance-title">
      <div className="stack">
        <p>The NFT purchase system is temporarily disabled because of duplicate NFT offers.</p>
        <p>Recent payments are recorded and NFTs will be assigned manually.</p>
        <p>Rewards are computed from the original purchase date.</p>
        <p>Resolution is expected within 24-48 hours.</p>
        {email && (
          <p>
            Support: <a href={`mailto:${email}`}>{email}</a>
          </p>
        )}
        <button className="btn btn-primary" onClick={() => setDismissed(true)} autoFocus>
          I Understand
        </button>
      </div>
    </Dialog>
  );
}
