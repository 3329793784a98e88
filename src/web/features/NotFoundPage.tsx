import { Link, useLocation } from "react-router-dom";
import { usePageTitle } from "../lib/usePageTitle";

export default function NotFoundPage() {
  const location = useLocation();
  usePageTitle("404 Page Not Found");
  return (
    <section className="container narrow center-page">
      <h1>404 Page Not Found</h1>
      <p className="muted">
        There is no page at <code>{location.pathname}</code>.
      </p>
      <Link className="btn btn-primary" to="/">
        Back to Home
      </Link>
    </section>
  );
}
