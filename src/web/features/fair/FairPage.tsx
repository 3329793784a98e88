import { useMemo } from "react";
import { rtpTable } from "../../../engine";
import { VERIFIER_PATH } from "../../../shared/fair";
import { usePageTitle } from "../../lib/usePageTitle";
import { Algorithms } from "./Algorithms";
import { CrashCheck } from "./CrashCheck";
import { PublishedChain, useFairness } from "./crashLink";
import { SeedCheck } from "./SeedCheck";
import { useSiteConfig } from "../../state/site";
import "./rounds.css";

const percent = (x: number) => `${(x * 100).toFixed(4)}%`;

/** /fair: the schemes in plain words and in full, checks and replays that run the same engine as the server, the standalone verifier, and the RTP table. */
export default function FairPage() {
  usePageTitle("Provably Fair");
  const { data: fairness } = useFairness();
  return (
    <section className="container fair">
      <header className="page-header">
        <h1>Provably Fair</h1>
        <p className="lead-left muted">
          Every outcome on VVX is decided by seeds committed before you bet, and can be recomputed by anyone. The checks and replays on this page run in
          your browser with the same code the server uses; nothing is sent anywhere. To check without trusting this page either, use the{" "}
          <a href={VERIFIER_PATH} download="vvx-verifier.html" data-testid="standalone-verifier-link">
            standalone verifier
          </a>{" "}
          (one HTML file: save it, open it offline, paste the rounds the API publishes), or audit a whole server from a terminal with{" "}
          <code>vvx verify &lt;url&gt;</code>.
        </p>
      </header>

      <div className="grid grid-2">
        <article className="card stack" id="crash">
          <h2>Crash: a hash chain committed on the ledger</h2>
          <p>
            Before the first round we publish the <strong>terminating hash</strong> of a chain of SHA-256 hashes, in a memo of a transaction on the XRP
            Ledger. The <strong>salt</strong> is the hash of a ledger validated ten ledgers later, so we could not choose it. Each round uses the previous hash
            in the chain: the next round's hash hashes to the round you just saw, and nobody can change a result without breaking the chain.
          </p>
          <PublishedChain />
        </article>
        <article className="card stack" id="seeds">
          <h2>Racing, slots and the wheel: seeds</h2>
          <p>
            The server picks a secret <strong>server seed</strong> and shows you its SHA-256, with the time, before you play. The <strong>client seed</strong>{" "}
            is a ledger's hash for racing (a ledger validated after betting closes) and yours for the slots and the wheel; each round has a{" "}
            <strong>nonce</strong>. Once the seed is revealed, check it against the hash you were shown.
          </p>
          <h3>Three ways to check</h3>
          <ul className="small fair-ways">
            <li>
              <strong>Every round has a page</strong> with its seeds, its bets and their payments on the ledger, and a replay drawn from the seeds: follow a
              round's number in the games' lists.
            </li>
            <li>
              <strong>Here</strong>: type any seeds (ours or another server's) below to compute or replay the round.
            </li>
            <li>
              <strong>Without us</strong>: the{" "}
              <a href={VERIFIER_PATH} download="vvx-verifier.html">
                standalone verifier
              </a>{" "}
              re-computes whatever the API publishes from the text below, and <code>vvx verify &lt;url&gt;</code> audits a whole server against the ledger:
              the chains' commitments, racing's client seeds, every payout.
            </li>
          </ul>
        </article>
      </div>

      <CrashCheck salt={fairness?.salt} terminating={fairness?.terminatingHash} />
      <SeedCheck />
      <Algorithms />

      <RtpCard />
    </section>
  );
}

/** Return to player of every game, computed exactly from the current configuration. */
function RtpCard() {
  // Racing's row follows the server's configured multiple; it waits for it rather than show the default.
  const site = useSiteConfig();
  const multiple = site.data?.racingPayoutMultiple;
  const rtp = useMemo(() => rtpTable(multiple === undefined ? {} : { racingPayoutMultiple: multiple }).filter((row) => row.game !== "racing" || multiple !== undefined), [multiple]);
  return (
    <article className="card section-gap" id="rtp">
      <h2>Return to player</h2>
      <p className="muted small">Computed exactly (by enumeration, not simulation) from the current configuration.</p>
      <div className="table-wrap">
        <table className="table stack-table" data-testid="rtp-table">
          <thead>
            <tr>
              <th scope="col">Game</th>
              <th scope="col">RTP</th>
              <th scope="col">How</th>
            </tr>
          </thead>
          <tbody>
            {rtp.map((row) => (
              <tr key={row.label}>
                <td data-label="Game">{row.label}</td>
                <td data-label="RTP" className="mono">
                  {row.rtp === null ? "free" : percent(row.rtp)}
                </td>
                <td data-label="How" className="small muted stack-prose">
                  {row.detail}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
