import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { AppProviders } from '@/app/app-providers';
import { routes } from '@/app/routes';

type Entry = NonNullable<NonNullable<Parameters<typeof createMemoryRouter>[1]>['initialEntries']>[number];

/** The whole app, with its real providers and routes, at `path` (a location with state too). */
export function renderApp(path: Entry) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<AppProviders router={router} />);
  return { router, user, ...view };
}
