import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { regionSchema, type Region } from '../src/contract/app-config';

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
}

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const regionsText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"name","api_base"}' });
    return z.NEVER;
  }
}).pipe(z.array(regionSchema).min(1, { error: 'must name at least one region' }));

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
  };
}
