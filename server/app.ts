import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Config } from './config';
import type { DatabaseInfo } from './db/database';
import { postgresConnection } from './db/database';
import type { Database } from './db/schema';
import { authLimits, type AuthLimits } from './lib/auth-limits';
import { deriveKeys } from './lib/crypto';
import { createMailer } from './lib/mailer';
import { Notifier } from './lib/notifier';
import { FileStore } from './lib/file-store';
import type { BlobStore } from './lib/blob-store';
import { DatabaseFileStore } from './lib/database-file-store';
import { PostgresNotifier } from './lib/postgres-notifier';
import { NO_HORIZON, PostgresSyncHorizon } from './lib/sync-horizon';
import { createNsfwClassifier, type ImageClassifier } from './lib/image-classifier';
import { parseQueryString } from '../src/contract/query-string';
import { createWebPushSender, PushDispatch, type PushSender } from './lib/push-sender';
import { pushEndpointProblem } from './lib/push-endpoints';
import { registerApiCompression } from './plugins/compression';
import { registerCsrf } from './plugins/csrf';
import { registerDemoTopUp } from './plugins/demo-top-up';
import { registerErrorHandling } from './plugins/errors';
import { registerIdempotency } from './plugins/idempotency';
import { addAuthRateLimit, registerRateLimit } from './plugins/rate-limit';
import { registerSafeText } from './plugins/safe-text';
import { registerStaffAudit } from './plugins/staff-audit';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerSessions } from './plugins/session';
import { registerRequestLog, requestLinesOff } from './plugins/request-log';
import { DOCUMENT_FORM_LIMITS, formBodies, multipartBodies } from './plugins/multipart-bodies';
import { registerStaticPwa } from './plugins/static-pwa';
import { registerStoredFileSweep } from './plugins/stored-file-sweep';
import appConfigRoute from './routes/app-config';
import csrfCookieRoute from './routes/auth/csrf-cookie';
import calendarInstancesRoute from './routes/calendar/instances';
import eventTypesRoute from './routes/calendar/event-types';
import createCommentRoutes from './routes/comments/create';
import documentReadRoutes from './routes/documents/read';
import documentWriteRoutes from './routes/documents/write';
import commentListRoutes from './routes/comments/read';
import entryReadRoutes from './routes/entries/read';
import entryWriteRoutes from './routes/entries/write';
import entryLookupRoutes from './routes/entries/lookups';
import fileViewRoute from './routes/files/view';
import nsfwRoute from './routes/residents/nsfw';
import feedbackCountsRoute from './routes/feedback/counts';
import feedbackListRoute from './routes/feedback/list';
import loginRoute from './routes/auth/login';
import logoutRoute from './routes/auth/logout';
import mfaEnableRoute from './routes/auth/mfa-enable';
import mfaLoginRoute from './routes/auth/mfa-login';
import mfaManageRoutes from './routes/auth/mfa-manage';
import mfaSendCodeRoute from './routes/auth/mfa-send-code';
import devMailboxRoute from './routes/dev-mailbox';
import healthRoute from './routes/health';
import pushSubscribeRoute from './routes/push/subscribe';
import pushUnsubscribeRoute from './routes/push/unsubscribe';
import appSettingsRoute from './routes/residents/app-settings';
import residentHomeRoute from './routes/residents/home';
import residentFeaturesRoute from './routes/residents/features';
import associatedUsersRoute from './routes/residents/associated-users';
import projectSettingRoute from './routes/residents/settings';
import showResidentRoute from './routes/residents/show';
import staffRosterRoute from './routes/rota/staff-roster';
import syncStreamRoute from './routes/sync/stream';
import taskReadRoutes from './routes/tasks/read';
import taskWriteRoutes from './routes/tasks/write';
import rewardReadRoutes from './routes/rewards/read';
import rewardWriteRoutes from './routes/rewards/write';
import accountRoute from './routes/users/account';
import changePasswordRoute from './routes/users/change-password';
import lookupRoutes from './routes/users/lookups';
import photoRoute from './routes/users/photo';
import showUserRoute from './routes/users/show';
import staffAccessRoute from './routes/audit/staff-access';
import './types';

export interface BuildAppOptions {
  config: Config;
  db: Kysely<Database>;
  /** Overrides of lib/auth-limits.ts (tests). */
  limits?: Partial<AuthLimits>;
  /** The image check; the real nsfwjs classifier when not given (tests inject one). */
  imageClassifier?: ImageClassifier;
  /** Replaces the web-push sender (tests: nothing may reach a real push service). */
  pushSender?: PushSender;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /**
   * The database `db` is on (db/database.ts's handle will do). On PostgreSQL the server is one of
   * possibly several processes: changes travel by LISTEN/NOTIFY, files are kept in the database
   * (unless config.s3 puts them in a bucket), the auth ceiling is counted there, and checkpoints
   * respect open transactions. Without it: PostgreSQL when config.databaseUrl is set, else the
   * embedded database.
   */
  database?: DatabaseInfo;
}

/**
 * Where uploaded files live (lib/blob-store.ts): in the S3-compatible bucket when S3_BUCKET is set,
 * on either database; else in PostgreSQL on PostgreSQL; else on disk beside the embedded database.
 * The S3 store (and the AWS SDK) is loaded only when configured: the default never needs it.
 */
export async function blobStoreFor(database: Pick<DatabaseInfo, 'kind'>, db: Kysely<Database>, config: Pick<Config, 'dataDir' | 's3' | 'appKey'>): Promise<BlobStore> {
  if (config.s3) {
    const { FILE_CHUNK_BYTES, S3FileStore } = await import('./lib/s3-file-store');
    return new S3FileStore(config.s3, { key: deriveKeys(config.appKey).files, chunk: FILE_CHUNK_BYTES });
  }
  return database.kind === 'postgres' ? new DatabaseFileStore(db) : new FileStore(config.dataDir);
}

/**
 * Secrets and personal data never reach the log. A two-factor code is redacted where a body or
 * its input would carry it, not as every `code`: an error's `code` is PostgreSQL's SQLSTATE or
 * Node's errno, which a 500 needs to be diagnosed (issue 12, finding 11).
 */
export const LOG_REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.current',
  '*.password_confirmation',
  'body.code',
  '*.body.code',
  'input.code',
  '*.input.code',
  '*.recovery_code',
  '*.secret',
];

/** The whole server as a Fastify instance; main.ts listens, tests listen on port 0. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' }, ...(options.logStream ? { stream: options.logStream } : {}) },
    // No line per request at info (plugins/request-log.ts): errors and 5xx answers only.
    logController: new LogController({ disableRequestLogging: requestLinesOff(config.logLevel) }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Ids in logs, not in answers.
    requestIdHeader: false,
    // qs-style brackets (filters[0][1]=, relations[]=): the list endpoints' query shape (SPEC §7).
    routerOptions: { querystringParser: parseQueryString },
  });

  app.decorate('config', config);
  app.decorate('db', options.db);
  app.decorate('keys', deriveKeys(config.appKey));
  app.decorate('limits', { ...authLimits, ...options.limits });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());
  const database: DatabaseInfo = options.database ?? (config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite' });
  app.decorate('databaseKind', database.kind);
  if (database.kind === 'postgres') {
    const notifier = new PostgresNotifier({ db: options.db, connect: () => new pg.Client(postgresConnection(database)), log: app.log });
    await notifier.start();
    app.addHook('onClose', async () => notifier.close());
    app.decorate('notifier', notifier);
    app.decorate('syncHorizon', new PostgresSyncHorizon(options.db));
  } else {
    app.decorate('notifier', new Notifier());
    app.decorate('syncHorizon', NO_HORIZON);
  }
  const fileStore = await blobStoreFor(database, options.db, config);
  app.decorate('fileStore', fileStore);
  app.addHook('onClose', async () => fileStore.close?.());
  const imageClassifier = options.imageClassifier ?? createNsfwClassifier({ ...config.imageCheck, log: app.log });
  app.decorate('imageClassifier', imageClassifier);
  app.addHook('onClose', async () => imageClassifier.close());
  app.decorate('pushSender', options.pushSender ?? createWebPushSender(config.vapid));
  const push = new PushDispatch({
    db: options.db,
    log: app.log,
    sender: () => app.pushSender,
    allowed: (endpoint) => pushEndpointProblem(endpoint, config.pushServiceHosts) === null,
  });
  app.decorate('push', push);
  app.addHook('onClose', async () => push.settled());

  // JSON only: a text/plain body must not reach a handler as a string (and is a CSRF classic).
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  registerRequestLog(app);
  registerSecurityHeaders(app);
  await app.register(cookie);
  registerSessions(app);
  registerCsrf(app);
  await registerRateLimit(app);
  registerSafeText(app);
  registerIdempotency(app);
  registerDemoTopUp(app);
  registerStaffAudit(app);
  registerStoredFileSweep(app);

  await app.register(
    async (api) => {
      // JSON answers over 1 KiB go compressed; never bytes, the change stream or sign-in (plugins/compression.ts).
      await registerApiCompression(api);
      await api.register(healthRoute);
      await api.register(appConfigRoute);
      await api.register(async (auth) => {
        addAuthRateLimit(auth, app);
        await auth.register(csrfCookieRoute);
        await auth.register(loginRoute);
        await auth.register(mfaSendCodeRoute);
        await auth.register(mfaLoginRoute);
        await auth.register(mfaEnableRoute);
        await auth.register(logoutRoute);
      });
      await api.register(accountRoute);
      await api.register(lookupRoutes);
      await api.register(showUserRoute);
      await api.register(photoRoute);
      await api.register(changePasswordRoute);
      await api.register(mfaManageRoutes);
      await api.register(showResidentRoute);
      await api.register(appSettingsRoute);
      await api.register(residentHomeRoute);
      await api.register(residentFeaturesRoute);
      await api.register(associatedUsersRoute);
      await api.register(projectSettingRoute);
      await api.register(staffRosterRoute);
      await api.register(calendarInstancesRoute);
      await api.register(eventTypesRoute);
      await api.register(feedbackListRoute);
      await api.register(feedbackCountsRoute);
      await api.register(commentListRoutes);
      // The only routes that take form bodies (multipart, url-encoded): one scope, one parser.
      await api.register(async (forms) => {
        await forms.register(multipartBodies);
        await forms.register(createCommentRoutes);
        await forms.register(entryWriteRoutes);
        await forms.register(nsfwRoute);
        await forms.register(taskWriteRoutes);
        await forms.register(rewardWriteRoutes);
      });
      // Documents take larger forms (short videos, books, galleries): their own scope and limits.
      await api.register(async (documentForms) => {
        await documentForms.register(formBodies(DOCUMENT_FORM_LIMITS));
        await documentForms.register(documentWriteRoutes);
      });
      await api.register(entryReadRoutes);
      await api.register(entryLookupRoutes);
      await api.register(taskReadRoutes);
      await api.register(rewardReadRoutes);
      await api.register(documentReadRoutes);
      await api.register(fileViewRoute);
      await api.register(pushSubscribeRoute);
      await api.register(pushUnsubscribeRoute);
      await api.register(syncStreamRoute);
      await api.register(staffAccessRoute);
      if (config.nodeEnv === 'development') await api.register(devMailboxRoute);
    },
    { prefix: '/api' },
  );

  await registerStaticPwa(app);
  return app;
}
