import { createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './app-providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

export function App() {
  return <AppProviders router={router} />;
}
