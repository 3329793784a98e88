import { Link } from "react-router-dom";
import { GameIcon } from "../../components/GameIcon";
import { formatCompact, formatWhole } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { usePlatformStats } from "../../state/site";
import { GAMES } from "../games/gameList";
import { DailySpinCard } from "./DailySpinCard";

const STEPS = [
  { n: 1, title: "Connect Wallet", text: "Sign in with the Xaman app: scan a QR code on a desktop or open the link on your phone." },
  { n: 2, title: "Buy NFT with VVX", text: "Choose a Genesis or Oasis tier and pay in VVX. Your XLS-20 NFT is minted and offered to your wallet." },
  { n: 3, title: "Earn Automatic Rewards", text: "Rewards accrue daily from your purchase date; claim them any time, and what you leave is paid in VVX to the NFT's owner at the end of each month." },
];

export default function LandingPage() {
  usePageTitle();
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <p className="eyebrow">NFT rewards on the XRP Ledger</p>
          <h1>
            Own a VVX NFT.
            <br />
            <span className="gradient-text">Earn VVX every day.</span>
          </h1>
          <p className="lead">
            Buy a tiered XLS-20 NFT with VVX, earn daily rewards for its term, and play provably fair games paid in XRP and VVX.
          </p>
          <div className="hero-actions">
            <Link className="btn btn-primary btn-lg" to="/marketplace">
              Explore Marketplace
            </Link>
            <Link className="btn btn-outline btn-lg" to="/games">
              Play Games
            </Link>
          </div>
          <StatsStrip />
        </div>
      </section>

      <section className="container section">
        <h2 className="section-title">How rewards work</h2>
        <ol className="grid grid-3 steps">
          {STEPS.map((s) => (
            <li key={s.n} className="card step">
              <span className="step-number" aria-hidden="true">
                {s.n}
              </span>
              <h3>{s.title}</h3>
              <p className="muted">{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="container section">
        <div className="section-head">
          <h2 className="section-title">Games</h2>
          <Link to="/games" className="link-arrow">
            All games →
          </Link>
        </div>
        <div className="grid grid-3">
          {GAMES.map((g) => (
            <Link key={g.path} to={g.path} className="card game-card game-card-link" style={{ ["--accent" as string]: g.accent }}>
              <div className="game-icon">
                <GameIcon game={g.icon} />
              </div>
              <h3>{g.title}</h3>
              <p className="muted">{g.blurb}</p>
            </Link>
          ))}
        </div>
      </section>

      <DailySpinCard />
    </>
  );
}

/** Total rewards, NFTs and holders, read from GET /api/stats. */
function StatsStrip() {
  const { data, error, isLoading } = usePlatformStats();
  if (error) return <p className="muted small stats-error">Platform figures are unavailable right now.</p>;
  const figures = [
    { label: "Total Rewards", value: data ? `${formatCompact(data.totalRewardsPoolVvx)} VVX` : "…", hint: data ? `${formatWhole(data.totalRewardsPaidVvx)} VVX paid so far` : "" },
    { label: "NFTs", value: data ? formatWhole(data.nftSupply) : "…", hint: data ? `${formatWhole(data.nftsMinted)} minted` : "" },
    { label: "Holders", value: data ? formatWhole(data.holders) : "…", hint: "wallets holding VVX NFTs" },
    { label: "VVX Burned", value: data ? formatWhole(data.vvxBurned) : "…", hint: "bought back with 1% of Crash bets" },
  ];
  return (
    <dl className="stats" aria-busy={isLoading} data-testid="landing-stats">
      {figures.map((f) => (
        <div key={f.label} className="stat">
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
          <dd className="stat-hint">{f.hint}</dd>
        </div>
      ))}
    </dl>
  );
}
