import { Link } from "react-router-dom";

export function Footer() {
  return (
    <footer className="app-footer">
      <span className="tagline">DocChat: answers from your documents, with the page they came from.</span>
      <nav aria-label="Footer">
        <Link to="/app/contact-us">Contact Us</Link>
        <Link to="/app/privacy-policy">Privacy Policy</Link>
        <Link to="/app/terms-of-use">Terms of Use</Link>
      </nav>
    </footer>
  );
}
