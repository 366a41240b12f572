import { Link } from 'react-router-dom';

export function Footer() {
  return (
    <footer className="site-footer">
      <nav aria-label="About Hearth">
        <Link to="/terms-and-conditions">Terms and conditions</Link>
        <Link to="/privacy-policy">Privacy policy</Link>
      </nav>
    </footer>
  );
}
