import { ENTRY_KINDS, type EntryKind } from './entry-kind';

/**
 * Every REST path of SPEC §7 and the documented additions (docs/api.md), once, for both sides.
 * Paths are below the API base (`/api` on our server, a region's address in the PWA):
 * - the server registers `route.pattern` (a Fastify pattern, `/v1/users/:id`) inside its `/api` prefix;
 * - the PWA builds `route.build(id)` (each `:param` replaced, in order, by an argument passed through
 *   encodeURIComponent) and adds a query with query-string.ts `withQuery` where it needs one.
 * tests/unit/paths.test.ts checks that every builder's output matches its own pattern and that
 * every route the server registers is in this table.
 *
 * Every path of SPEC §7 is served; new ones start here, in the table, never as a literal.
 */

/** The `:name` parameters of a pattern, in order, as a tuple of strings (any number for `string`). */
export type PathParams<P extends string> = string extends P
  ? string[]
  : P extends `${string}:${string}/${infer Rest}`
  ? [string, ...PathParams<`/${Rest}`>]
  : P extends `${string}:${string}`
    ? [string]
    : [];

export interface RestRoute<P extends string = string> {
  /** The Fastify pattern below the API base, e.g. `/v1/projects/residents/:id/tasks/complete`. */
  readonly pattern: P;
  /** The path for these ids (encoded with encodeURIComponent), in the pattern's order. */
  readonly build: (...params: PathParams<P>) => string;
}

export function restRoute<const P extends string>(pattern: P): RestRoute<P> {
  const segments = pattern.split('/');
  const build = (...params: string[]): string => {
    let next = 0;
    return segments
      .map((segment) => {
        if (!segment.startsWith(':')) return segment;
        const value = params[next++];
        if (value === undefined) throw new TypeError(`${pattern}: missing ${segment}`);
        return encodeURIComponent(value);
      })
      .join('/');
  };
  return { pattern, build: build as RestRoute<P>['build'] };
}

/** The routes of one entry kind (journal or voice): one machinery, used twice. */
export interface EntryRoutes {
  /** GET the list (checkpoint query), POST to create. */
  readonly entries: RestRoute<string>;
  /** GET one entry with its comments, POST `?_method=PUT` to update. */
  readonly entry: RestRoute<string>;
  /** POST a comment. */
  readonly comments: RestRoute<string>;
  /** POST `?_method=PUT` to edit a comment. */
  readonly comment: RestRoute<string>;
  /** GET the comments of one entry (checkpoint query; an addition, docs/api.md). */
  readonly entryComments: RestRoute<string>;
}

function entryRoutes<const B extends string>(base: B) {
  return {
    entries: restRoute(base),
    entry: restRoute(`${base}/:id`),
    comments: restRoute(`${base}/comments`),
    comment: restRoute(`${base}/comments/:id`),
    entryComments: restRoute(`${base}/:id/comments`),
  };
}

/** Journal and voice entries and their comments, by kind. */
export const entryPaths = {
  journal: entryRoutes('/v1/projects/residents/journal/entries'),
  voice: entryRoutes('/v1/projects/residents/voices/entries'),
} as const satisfies Record<EntryKind, EntryRoutes>;

export const paths = {
  // Authentication (SPEC §7)
  csrfCookie: restRoute('/auth/csrf-cookie'),
  login: restRoute('/auth/login'),
  mfaSendCode: restRoute('/auth/mfa/send-code'),
  mfaEnable: restRoute('/auth/mfa/enable'),
  mfaLogin: restRoute('/auth/mfa/login'),
  logout: restRoute('/auth/logout'),
  /** Issue 12, after the password again: DELETE turns a two-factor method off. */
  mfaMethod: restRoute('/v1/auth/mfa/methods/:method'),
  /** Issue 12, after the password again: POST makes ten new recovery codes (the old ones stop working). */
  recoveryCodes: restRoute('/v1/auth/mfa/recovery-codes'),

  // Users
  account: restRoute('/v1/auth/user'),
  user: restRoute('/v1/users/:id'),
  profilePhoto: restRoute('/v1/users/profile/photo/:id'),
  /** PUT, or POST with `_method=PUT` (docs/api.md). */
  changePassword: restRoute('/v1/users/:id/change-password'),
  userTypes: restRoute('/v1/users/types'),
  userThemes: restRoute('/v1/users/themes'),
  pushSubscribe: restRoute('/v1/notifications/push/subscribe'),
  /** Addition (docs/api.md): logout removes the subscription. */
  pushUnsubscribe: restRoute('/v1/notifications/push/unsubscribe'),

  // Calendar
  calendarInstances: restRoute('/v1/residents/:id/instances'),
  eventTypes: restRoute('/v1/events/types'),

  // Files: `file_id` and `module` go in the query (see fileViewPath).
  fileView: restRoute('/v1/files/view'),

  // Journal and voice (the entries themselves are in entryPaths)
  journalEntries: entryPaths.journal.entries,
  voiceEntries: entryPaths.voice.entries,
  voiceCategories: restRoute('/v1/projects/residents/voices/categories'),

  // Rewards (issue 10)
  /** GET with `resident_id` and `relations[]=image`: the catalogue of that young person's home (checkpoint list). */
  rewards: restRoute('/v1/projects/residents/rewards'),
  /** GET: the young person's exchanges, newest first (checkpoint list). */
  rewardsHistory: restRoute('/v1/projects/residents/:id/rewards/history'),
  /** POST: swap points for a reward (201, the history item). */
  rewardExchange: restRoute('/v1/projects/residents/:id/rewards/:rewardId/exchange'),
  /** Addition (docs/api.md), staff only: GET a home's whole catalogue (checkpoint list), POST a new reward. */
  homeRewards: restRoute('/v1/homes/:id/rewards'),
  /** Addition, staff only: POST with `_method=PUT` changes a reward, DELETE withdraws it. */
  reward: restRoute('/v1/rewards/:id'),
  /** Addition, staff only: the exchanges of a home's young people (checkpoint list, filter `status`). */
  homeRewardExchanges: restRoute('/v1/homes/:id/reward-exchanges'),
  /** Addition, staff only: POST approves a pending exchange (the points stay spent). */
  rewardExchangeApprove: restRoute('/v1/reward-exchanges/:id/approve'),
  /** Addition, staff only: POST denies a pending exchange (the points are given back). */
  rewardExchangeDeny: restRoute('/v1/reward-exchanges/:id/deny'),

  // Tasks (issue 9)
  tasksComplete: restRoute('/v1/projects/residents/:id/tasks/complete'),
  tasksIncomplete: restRoute('/v1/projects/residents/:id/tasks/incomplete'),
  task: restRoute('/v1/tasks/:id'),
  taskLatestLog: restRoute('/v1/tasks/:id/logs/latest'),
  taskLogComments: restRoute('/v1/tasks/logs/comments'),
  /** GET, or POST with `_method=PUT`. */
  taskLogComment: restRoute('/v1/tasks/logs/comments/:id'),
  /** Addition (docs/api.md), staff only: POST makes an objective for this young person. */
  residentTasks: restRoute('/v1/projects/residents/:id/tasks'),
  /** Addition, staff only: POST with `_method=PUT` fills or completes a task log. */
  taskLog: restRoute('/v1/tasks/logs/:id'),
  /** Addition: the points ledger of a young person (checkpoint list, with the balance). */
  residentPoints: restRoute('/v1/projects/residents/:id/points'),
  /** Addition: form templates with their newest definition (checkpoint list). */
  forms: restRoute('/v1/forms'),

  // Other
  staffRoster: restRoute('/v1/rotas/staff-roster'),
  associatedUsers: restRoute('/v1/projects/residents/:id/associated-users'),
  resident: restRoute('/v1/projects/residents/:id'),
  projectSetting: restRoute('/v1/projects/:id/settings/:name'),
  feedback: restRoute('/v1/projects/residents/feedback'),
  feedbackCounts: restRoute('/v1/projects/residents/feedback/counts'),
  /** PUT, or POST with `_method=PUT`. */
  appSettings: restRoute('/v1/projects/residents/:id/app-settings'),
  /** Addition, staff of the young person's home only: PUT (or POST with `_method=PUT`) `home_id` moves them to another home of the site. */
  residentHome: restRoute('/v1/projects/residents/:id/home'),
  /** Addition, staff of the young person's home only: PUT (or POST with `_method=PUT`) any of `journal_enabled`, `voice_enabled`, `rewards_enabled` (0 or 1). */
  residentFeatures: restRoute('/v1/projects/residents/:id/features'),
  nsfwCheck: restRoute('/v1/projects/residents/:id/photos/nsfw'),
  emojis: restRoute('/v1/tags/icons/emojis'),
  /** Documents (issue 11): GET the list (checkpoint query); staff POST to share (docs/api.md). */
  documents: restRoute('/v1/documents'),
  /** GET one document; staff POST `?_method=PUT` to update, DELETE to withdraw. */
  document: restRoute('/v1/documents/:id'),
  /** SPEC §7 "any document path as a blob": the file of a `file` document (range requests). */
  documentBlob: restRoute('/v1/documents/:id/blob'),
  /** Any other file of a document: a page's picture, a gallery item, a file answer of a submission. */
  documentItemBlob: restRoute('/v1/documents/:id/items/:itemId/blob'),
  /** The young person POSTs their answers to a form document; staff GET the submissions. */
  documentSubmissions: restRoute('/v1/documents/:id/submissions'),

  // Additions (docs/api.md)
  appConfig: restRoute('/app-config'),
  health: restRoute('/health'),
  /** Development mode only. */
  devMailbox: restRoute('/dev/mailbox'),
  /** Issue 12: a manager reads what the staff of their homes read and changed (contract audit.ts). */
  staffAccessLog: restRoute('/v1/staff/access-log'),
  /** Server-sent events: `event: change` with the collections to re-sync. */
  syncStream: restRoute('/v1/sync/stream'),
} as const;

export type PathName = keyof typeof paths;

/** Every route of the table, entry routes included (each pattern once). */
export function allRoutes(): RestRoute[] {
  const routes = new Map<string, RestRoute>();
  const add = (route: RestRoute<string>) => routes.set(route.pattern, route as RestRoute);
  Object.values(paths).forEach(add);
  for (const kind of ENTRY_KINDS) Object.values(entryPaths[kind]).forEach(add);
  return [...routes.values()];
}

/** GET /v1/files/view?file_id=&module=journal|voice|comment|task_comment|task_log|reward, as src/api/files/view-file.ts asks for it. */
export const fileViewPath = (fileId: string, module: EntryKind | 'comment' | 'task_comment' | 'task_log' | 'reward'): string =>
  `${paths.fileView.build()}?file_id=${encodeURIComponent(fileId)}&module=${encodeURIComponent(module)}`;
