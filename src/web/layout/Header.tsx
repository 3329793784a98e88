import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useDismiss } from "../lib/useDismiss";
import { Link, NavLink, useLocation } from "react-router-dom";
import logo from "../../../assets/logo.svg";
import { CLIENT_ROUTES } from "../../shared/routes";

const NAV = [
  { to: "/", label: "Home" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/rewards", label: "Rewards" },
  { to: "/games", label: "Games" },
  { to: "/buy-vvx", label: "Buy VVX" },
];

/** Built pages not already in the main navigation. */
const MENU = CLIENT_ROUTES.filter((r) => r.menuLabel && !NAV.some((n) => n.to === r.path));

/** Shared header: logo, navigation, a dropdown menu, the wallet slot and the mobile menu toggle. */
export function Header({ walletSlot }: { walletSlot?: ReactNode }) {
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setMobileOpen(false), [location.pathname]);

  return (
    <header className="site-header">
      <div className="container header-row">
        <Link to="/" className="brand" aria-label="VVX home">
          <img src={logo} alt="" width={32} height={32} />
          <span>VVX</span>
        </Link>
        <nav className="nav-desktop" aria-label="Main">
          {NAV.map((n) => (
            <NavLink key={n.to} to={n.to} end={n.to === "/"} className="nav-link">
              {n.label}
            </NavLink>
          ))}
          {MENU.length > 0 && <MoreMenu />}
        </nav>
        <div className="header-actions">
          <div className="wallet-slot">{walletSlot}</div>
          <button
            className="btn btn-ghost mobile-toggle"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
            aria-expanded={mobileOpen}
            aria-controls="mobile-nav"
            onClick={() => setMobileOpen((o) => !o)}
          >
            <span className={`burger ${mobileOpen ? "open" : ""}`} aria-hidden="true" />
          </button>
        </div>
      </div>
      {mobileOpen && (
        <nav id="mobile-nav" className="nav-mobile" aria-label="Mobile">
          {[...NAV, ...MENU.map((r) => ({ to: r.path, label: r.menuLabel! }))].map((n) => (
            <NavLink key={n.to} to={n.to} end={n.to === "/"} className="nav-link">
              {n.label}
            </NavLink>
          ))}
        </nav>
      )}
    </header>
  );
}

function MoreMenu() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);
  return (
    <div className="dropdown" ref={root}>
      <button className="nav-link dropdown-trigger" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        More ▾
      </button>
      {open && (
        <div className="dropdown-menu" role="menu">
          {MENU.map((r) => (
            <Link key={r.path} to={r.path} role="menuitem" className="dropdown-item">
              {r.menuLabel}
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}
