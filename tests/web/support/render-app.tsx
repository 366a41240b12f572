import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { AppProviders } from '@/app/app-providers';
import { routes } from '@/app/routes';

/** The whole app, with its real providers and routes, at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<AppProviders router={router} />);
  return { router, user, ...view };
}
