import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_SITE } from './accounts';

/** A member of staff signed in through the real API (the app itself refuses staff), in a request context of its own. */
export interface StaffApi {
  post<T = unknown>(path: string, data: unknown): Promise<T>;
  get<T = unknown>(path: string): Promise<T>;
  dispose(): Promise<void>;
}

export async function staffApi(baseURL: string, username = 'carer.ali'): Promise<StaffApi> {
  const context: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  const xsrf = async () => decodeURIComponent((await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  expect((await context.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await context.post('/api/auth/login', {
    data: { username, password: DEMO_PASSWORD, client_site: DEMO_SITE },
    headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return {
    async post<T>(path: string, data: unknown) {
      const response = await context.post(path, { data, headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' } });
      expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
      return ((await response.json()) as { data: T }).data;
    },
    async get<T>(path: string) {
      const response = await context.get(path, { headers: { Accept: 'application/json' } });
      expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
      return (await response.json()) as T;
    },
    dispose: () => context.dispose(),
  };
}
