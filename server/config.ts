import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { regionSchema, type Region } from '../src/contract/app-config';
import { defaultImageCheckWorkers, type ImageCheckBackend } from './lib/image-classifier';
import { DEFAULT_PUSH_SERVICE_HOSTS, parsePushServiceHosts, type PushHostRule } from './lib/push-endpoints';
import type { S3StoreOptions } from './lib/s3-file-store';

/**
 * Server configuration, read once from the environment and validated (ARCHITECTURE rule 5).
 * HOST defaults to 127.0.0.1 so a fresh checkout is never exposed on the network by accident;
 * set HOST=0.0.0.0 behind a reverse proxy or in a container.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  nodeEnv: 'production' | 'development' | 'test';
  /** 32 bytes; every other secret (CSRF, code hashes, secret encryption) is derived from it. */
  appKey: Buffer;
  smtpUrl: string | null;
  mailFrom: string;
  productName: string;
  regions: Region[];
  defaultSite: string | null;
  seedDemo: boolean;
  trustProxy: boolean;
  staticDir: string;
  logLevel: string;
  /** Web Push (VAPID) keys, base64url; generated into DATA_DIR/vapid.json (0600) when not set. */
  vapid: VapidKeys;
  /** PUSH_SERVICE_HOSTS: the push services a subscription may point at (lib/push-endpoints.ts). */
  pushServiceHosts: PushHostRule[];
  /** The image check's pool (lib/image-classifier.ts): worker threads, backend, started at boot or on first use. */
  imageCheck: { workers: number; backend: ImageCheckBackend; warm: boolean };
  /** WORKERS: how many server processes share PORT on this machine (server/main.ts); above 1 only on PostgreSQL. */
  workers: number;
  /** S3_*: uploaded files in an S3-compatible bucket (lib/s3-file-store.ts) instead of the database or the disk; null when S3_BUCKET is unset. */
  s3: S3StoreOptions | null;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

function base64UrlBytes(length: number, message: string) {
  return z.string().refine((v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === length, { error: message });
}

const regionsText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"name","api_base"}' });
    return z.NEVER;
  }
}).pipe(z.array(regionSchema).min(1, { error: 'must name at least one region' }));

/** http(s)://host[:port] only: credentials belong in their own variables, and a path or query would change every key. */
const s3Endpoint = z.string().transform((text, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname) {
    ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// address such as http://127.0.0.1:9000' });
  } else if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must not hold credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY' });
  } else if (url.pathname !== '/' || url.search || url.hash) {
    ctx.addIssue({ code: 'custom', message: 'must be http(s)://host[:port] without a path; put the bucket in S3_BUCKET and a key prefix in S3_PREFIX' });
  } else {
    return url.origin;
  }
  return z.NEVER;
});

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must start with postgres:// or postgresql://' })
    .optional(),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  APP_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, { error: 'must be 32 bytes encoded in base64' })
    .optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: 'must start with smtp:// or smtps://' }).optional(),
  MAIL_FROM: z.string().min(3).default('Hearth <no-reply@hearth.localhost>'),
  PRODUCT_NAME: z.string().min(1).default('Hearth'),
  REGIONS: regionsText.default([{ name: 'United Kingdom', api_base: '/api' }]),
  DEFAULT_SITE: z.string().default('demo'),
  SEED_DEMO: booleanText.default(true),
  TRUST_PROXY: booleanText.default(false),
  STATIC_DIR: z.string().min(1).default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  VAPID_PUBLIC_KEY: base64UrlBytes(65, 'must be an uncompressed P-256 public key (65 bytes) in base64url').optional(),
  VAPID_PRIVATE_KEY: base64UrlBytes(32, 'must be a P-256 private key (32 bytes) in base64url').optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, { error: 'must be a mailto: or https: address' }).default('mailto:no-reply@hearth.localhost'),
  IMAGE_CHECK_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  IMAGE_CHECK_BACKEND: z.enum(['wasm', 'cpu']).default('wasm'),
  IMAGE_CHECK_WARM: booleanText.optional(),
  WORKERS: z
    .union([z.literal('auto').transform(() => availableParallelism()), z.coerce.number().int().min(1).max(64)], {
      error: 'must be a whole number from 1 to 64, or auto (one per core)',
    })
    .default(1),
  S3_BUCKET: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/, { error: 'must be a bucket name: 3 or more letters, digits, dots, hyphens or underscores' }).optional(),
  S3_ENDPOINT: s3Endpoint.optional(),
  S3_REGION: z.string().regex(/^[A-Za-z0-9-]+$/, { error: 'must be a region name such as us-east-1' }).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanText.optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)+$/, { error: 'must be folder names each ending in /, such as hearth/ (letters, digits, . _ -; no name starts with a dot)' })
    .optional(),
  PUSH_SERVICE_HOSTS: z
    .string()
    .default(DEFAULT_PUSH_SERVICE_HOSTS)
    .transform((text, ctx) => {
      const { rules, problems } = parsePushServiceHosts(text);
      for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
      return rules;
    }),
});

const vapidFileSchema = z.object({
  publicKey: envSchema.shape.VAPID_PUBLIC_KEY.unwrap(),
  privateKey: envSchema.shape.VAPID_PRIVATE_KEY.unwrap(),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads APP_KEY, or creates DATA_DIR/app.key (0600) once so restarts keep sessions and secrets valid. */
function loadAppKey(explicit: string | undefined, dataDir: string): Buffer {
  if (explicit) return Buffer.from(explicit, 'base64');
  const file = join(dataDir, 'app.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new ConfigError([`${file}: must hold 32 bytes encoded in base64`]);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * Reads VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither), or creates DATA_DIR/vapid.json
 * (0600) once: a new key pair would orphan every browser's push subscription.
 */
function loadVapidKeys(publicKey: string | undefined, privateKey: string | undefined, subject: string, dataDir: string): VapidKeys {
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  if (publicKey || privateKey) throw new ConfigError(['VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither']);
  const file = join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    let raw: unknown = null;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // reported below
    }
    const stored = vapidFileSchema.safeParse(raw);
    if (!stored.success) throw new ConfigError([`${file}: must hold {"publicKey","privateKey"} in base64url`]);
    return { ...stored.data, subject };
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, `${JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey })}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject };
}

/** Empty strings count as unset, as a shell `VAR=` line usually means "use the default". */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => !!e[1]));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const e = parsed.data;
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError([`WORKERS: ${e.WORKERS} processes need DATABASE_URL (PostgreSQL); the embedded database belongs to one process`]);
  }
  const s3 = s3Options(e);
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    nodeEnv: e.NODE_ENV,
    appKey: loadAppKey(e.APP_KEY, dataDir),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    productName: e.PRODUCT_NAME,
    regions: e.REGIONS,
    defaultSite: e.DEFAULT_SITE || null,
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY,
    staticDir: resolve(e.STATIC_DIR),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    vapid: loadVapidKeys(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY, e.VAPID_SUBJECT, dataDir),
    pushServiceHosts: e.PUSH_SERVICE_HOSTS,
    imageCheck: {
      workers: e.IMAGE_CHECK_WORKERS ?? defaultImageCheckWorkers(),
      backend: e.IMAGE_CHECK_BACKEND,
      warm: e.IMAGE_CHECK_WARM ?? e.NODE_ENV === 'production',
    },
    workers: e.WORKERS,
    s3,
  };
}

/**
 * The S3 store's settings, or null without S3_BUCKET. Half a setting is refused rather than guessed
 * at: a key id without its secret, or S3 variables without a bucket (the files would quietly go
 * to the database or the disk instead). Error messages name variables, never their values.
 */
function s3Options(e: z.infer<typeof envSchema>): S3StoreOptions | null {
  if (!e.S3_BUCKET) {
    const stray = (['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const).filter((name) => e[name] !== undefined);
    if (stray.length > 0) throw new ConfigError([`${stray.join(', ')}: set S3_BUCKET to keep uploaded files in an S3-compatible store, or unset ${stray.length > 1 ? 'them' : 'it'}`]);
    return null;
  }
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError(['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK\'s default credentials (AWS_* variables, shared files, an instance role)']);
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT ?? null,
    region: e.S3_REGION ?? 'us-east-1',
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : null,
    // Self-hosted stores rarely have a DNS name per bucket; AWS prefers virtual-hosted names.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
    prefix: e.S3_PREFIX ?? '',
  };
}
