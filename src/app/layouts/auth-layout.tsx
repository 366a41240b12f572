import { Link } from 'react-router-dom';
import { useProductName } from '@/data/app-config-store';
import { RouteGuards } from '../guards/route-guards';
import { Nav } from '../shell/nav';
import { Footer } from './footer';

/** SPEC layout "auth": the signed-in shell with navigation. */
export function AuthLayout() {
  const product = useProductName();
  return (
    <div className="layout layout--auth">
      <header className="site-header">
        <Link to="/dashboard" className="brand">
          <span className="brand__mark" aria-hidden="true" />
          {product}
        </Link>
      </header>
      <Nav />
      <main id="main" tabIndex={-1} className="layout__main">
        <RouteGuards />
      </main>
      <Footer />
    </div>
  );
}
