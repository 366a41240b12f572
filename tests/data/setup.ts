import { afterEach } from 'vitest';
import { resetReachability } from '@/api/reachability';

// A test whose requests fail leaves the server "unreachable" (src/api/reachability.ts): the next starts afresh.
afterEach(() => resetReachability());
