import { Link, Outlet } from 'react-router-dom';
import { useAccount } from '@/data/session-store';
import { useProductName } from '@/data/app-config-store';
import { Footer } from './footer';

/** SPEC layout "default": a public page (sign-in, two-factor, legal, developer, 404). */
export function DefaultLayout() {
  const product = useProductName();
  const account = useAccount();
  return (
    <div className="layout layout--default">
      <header className="site-header">
        <Link to={account ? '/dashboard' : '/'} className="brand">
          <span className="brand__mark" aria-hidden="true" />
          {product}
        </Link>
      </header>
      <main id="main" tabIndex={-1} className="layout__main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
