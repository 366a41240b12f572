import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Database, SessionState } from './db/schema';
import type { AuthLimits } from './lib/auth-limits';
import type { BlobStore } from './lib/blob-store';
import type { ImageClassifier } from './lib/image-classifier';
import type { Keys } from './lib/crypto';
import type { Mailer } from './lib/mailer';
import type { Notifier } from './lib/notifier';
import type { PushDispatch, PushSender } from './lib/push-sender';
import type { SyncHorizon } from './lib/sync-horizon';

/** What the session plugin found for this request (null: no valid session cookie). */
export interface CurrentSession {
  id: string;
  tokenHash: string;
  tenantId: string | null;
  userId: string | null;
  state: SessionState;
  /** The person is staff (not a young person): their data requests are recorded (plugins/staff-audit.ts). */
  staff: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    keys: Keys;
    mailer: Mailer;
    limits: AuthLimits;
    /** PostgreSQL (possibly one of several processes) or the embedded database (one process). */
    databaseKind: 'pglite' | 'postgres';
    notifier: Notifier;
    /** Uploaded files: on disk (embedded database) or in PostgreSQL (lib/blob-store.ts). */
    fileStore: BlobStore;
    /** What a page's checkpoint must stay below (lib/sync-horizon.ts). */
    syncHorizon: SyncHorizon;
    /** The image check (lib/image-classifier.ts); tests may inject their own. */
    imageClassifier: ImageClassifier;
    /** One Web Push delivery (lib/push-sender.ts); replaceable in tests. */
    pushSender: PushSender;
    /** Fire-and-forget pushes to a person's browsers. */
    push: PushDispatch;
  }
  interface FastifyContextConfig {
    /** Writes that honour the Idempotency-Key header (plugins/idempotency.ts). */
    idempotent?: boolean;
    /** Set on every /api route (plugins/compression.ts): its JSON answers may be compressed. */
    compressJson?: boolean;
  }
  interface FastifyRequest {
    session: CurrentSession | null;
    /** The claimed idempotency key of this request, if any (plugins/idempotency.ts). */
    idempotencyClaim: { id: string } | null;
  }
}
