/**
 * The contract's modules in the order a signed-in start needs them, leaves first, each evaluated
 * in a task of its own by `importInTasks` (src/lib/import-in-tasks.ts): building their zod schemas
 * was the longest work left at a warm start (issue 13; docs/decisions.md "The contract's schemas,
 * a module per task"). A module missing here still loads with the import that needs it, only in
 * that import's task; these lists change no behaviour, only where the work falls.
 */
import type { ModuleStep } from '@/lib/import-in-tasks';

/** What `loadAccount` parses the account with (src/data/refresh-account.ts). */
export const accountContract: readonly ModuleStep[] = [
  () => import('@/contract/envelope'),
  () => import('@/contract/auth'),
  () => import('@/contract/users'),
];

/** What the replication's pulls parse with (src/data/replica/lifecycle.ts, before its controller loads). */
export const replicationContract: readonly ModuleStep[] = [
  ...accountContract,
  () => import('@/contract/calendar-values'),
  () => import('@/contract/text'),
  () => import('@/contract/sync'),
  () => import('@/contract/residents'),
  () => import('@/contract/entries'),
  () => import('@/contract/comments'),
  () => import('@/contract/calendar'),
  () => import('@/contract/rota'),
  () => import('@/contract/feedback'),
  () => import('@/contract/push'),
  () => import('@/contract/forms'),
  () => import('@/contract/tasks'),
  () => import('@/contract/rewards'),
  () => import('@/contract/documents'),
];
