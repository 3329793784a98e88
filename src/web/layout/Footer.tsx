import { Link } from "react-router-dom";
import { useSiteConfig, type SiteConfig } from "../state/site";

type LinkKey = keyof SiteConfig["links"];

const RESOURCES: { key: LinkKey; label: string }[] = [
  { key: "buyToken", label: "Buy VVX Token" },
  { key: "whitepaper", label: "Whitepaper" },
  { key: "ledgerDocs", label: "XRP Ledger Docs" },
  { key: "walletSite", label: "Xaman Wallet" },
];
const LEGAL: { key: LinkKey; label: string }[] = [
  { key: "terms", label: "Terms of Service" },
  { key: "privacy", label: "Privacy Policy" },
];
const SOCIAL: { key: LinkKey; label: string }[] = [
  { key: "twitter", label: "Twitter" },
  { key: "discord", label: "Discord" },
  { key: "telegram", label: "Telegram" },
  { key: "medium", label: "Medium" },
];

/** Footer: text, copyright with the current year, and links; configured links only (no dead links). */
export function Footer() {
  const { data } = useSiteConfig();
  const links = data?.links ?? {};
  const external = (items: { key: LinkKey; label: string }[]) =>
    items
      .filter((i) => links[i.key])
      .map((i) => (
        <li key={i.key}>
          <a href={links[i.key]} target="_blank" rel="noopener noreferrer">
            {i.label}
          </a>
        </li>
      ));
  const resources = external(RESOURCES);
  const legal = external(LEGAL);
  const social = external(SOCIAL);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <div className="footer-brand">VVX</div>
          <p className="muted">VVX NFT rewards platform built on the XRP Ledger</p>
        </div>
        <nav aria-label="Platform">
          <h3>Platform</h3>
          <ul>
            <li>
              <Link to="/">Home</Link>
            </li>
            <li>
              <Link to="/marketplace">Marketplace</Link>
            </li>
            <li>
              <Link to="/rewards">Rewards</Link>
            </li>
            <li>
              <Link to="/fair">Provably Fair</Link>
            </li>
          </ul>
        </nav>
        {(resources.length > 0 || legal.length > 0) && (
          <nav aria-label="Resources">
            <h3>Resources</h3>
            <ul>
              {resources}
              {legal}
            </ul>
          </nav>
        )}
        {(social.length > 0 || data?.supportEmail) && (
          <nav aria-label="Community">
            <h3>Community</h3>
            <ul>
              {social}
              {data?.supportEmail && (
                <li>
                  <a href={`mailto:${data.supportEmail}`}>Contact</a>
                </li>
              )}
            </ul>
          </nav>
        )}
      </div>
      <div className="container copyright">© {new Date().getFullYear()} VVX. All rights reserved.</div>
    </footer>
  );
}
