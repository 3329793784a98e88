import { Link } from "react-router-dom";
import { GameIcon } from "../../components/GameIcon";
import { usePageTitle } from "../../lib/usePageTitle";
import { GAMES } from "./gameList";

export default function GamesPage() {
  usePageTitle("Games");
  return (
    <section className="container">
      <header className="page-header">
        <h1>Games</h1>
        <p className="muted">
          Three provably fair games on the XRP Ledger. Every round can be checked from its seeds on the <Link to="/fair">Provably Fair</Link> page.
        </p>
      </header>
      <div className="grid grid-3">
        {GAMES.map((g) => (
          <article key={g.path} className="card game-card" style={{ ["--accent" as string]: g.accent }}>
            <div className="game-icon">
              <GameIcon game={g.icon} />
            </div>
            <h2>{g.title}</h2>
            <p className="muted">{g.blurb}</p>
            <p className="small">{g.meta}</p>
            <Link className="btn btn-primary" to={g.path}>
              Play {g.title}
            </Link>
          </article>
        ))}
      </div>
    </section>
  );
}
