import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { MfaMethod } from '../../../src/contract/auth';
import type { Account, Theme } from '../../../src/contract/users';
import { compiledOnce } from '../../db/compiled-once';
import type { SignedIn } from '../../plugins/session';
import { toTheme } from './themes';

/**
 * GET /api/v1/auth/user in one statement (issue 13, server throughput): the person, their type, site
 * policy, photo flag, theme, resident record, confirmed two-factor methods and homes, which were seven
 * queries. The same rules as before: homes are those of domain/access.ts homeIdsOf (a young person's
 * home and the homes a carer works in, not deleted), by name; methods are mfa/methods.ts confirmedMethods.
 */
interface AccountRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string | null;
  user_type_id: number;
  type_system_name: string;
  type_name: string;
  mfa_policy: 'optional' | 'required';
  has_photo: boolean;
  theme_id: number | null;
  theme_system_name: Theme['system_name'] | null;
  theme_name: string | null;
  theme_type: 'kids_app' | null;
  resident_id: string | null;
  resident_home_id: string | null;
  preferred_name: string | null;
  reward_points: number | null;
  journal_enabled: 0 | 1 | null;
  voice_enabled: 0 | 1 | null;
  rewards_enabled: 0 | 1 | null;
  mfa_methods: MfaMethod[];
  homes: { id: string; name: string }[];
}

const accountRow = compiledOnce((_db, v: { tenantId: string; userId: string }) =>
  sql<AccountRow>`
    select u.id, u.username, u.first_name, u.last_name, u.email, u.user_type_id,
      ut.system_name as type_system_name, ut.name as type_name, t.mfa_policy,
      exists (select 1 from user_photos p where p.user_id = u.id and p.deleted_at is null) as has_photo,
      th.id as theme_id, th.system_name as theme_system_name, th.name as theme_name, th.theme_type,
      r.id as resident_id, r.home_id as resident_home_id, r.preferred_name, r.reward_points,
      r.journal_enabled, r.voice_enabled, r.rewards_enabled,
      array(
        select m.method from mfa_methods m
        where m.tenant_id = ${v.tenantId} and m.user_id = ${v.userId} and m.confirmed_at is not null and m.deleted_at is null
        order by m.method
      ) as mfa_methods,
      coalesce((
        select json_agg(json_build_object('id', h.id, 'name', h.name) order by h.name)
        from homes h
        where h.tenant_id = ${v.tenantId} and h.deleted_at is null and h.id in (
          select rh.home_id from residents rh where rh.tenant_id = ${v.tenantId} and rh.user_id = ${v.userId} and rh.deleted_at is null
          union
          select hs.home_id from home_staff hs where hs.tenant_id = ${v.tenantId} and hs.user_id = ${v.userId} and hs.deleted_at is null
        )
      ), '[]'::json) as homes
    from users u
    join user_types ut on ut.id = u.user_type_id
    join tenants t on t.id = u.tenant_id
    left join themes th on th.id = u.theme_id
    left join lateral (
      select r.* from residents r
      where r.tenant_id = ${v.tenantId} and r.user_id = u.id and r.deleted_at is null
      limit 1
    ) r on true
    where u.id = ${v.userId} and u.tenant_id = ${v.tenantId} and u.deleted_at is null`,
);

/** The signed-in person's account, or null when the person is gone (the route answers 401). */
export async function accountOf(app: FastifyInstance, auth: SignedIn): Promise<Account | null> {
  const [row] = await accountRow(app.db, { tenantId: auth.tenantId, userId: auth.userId });
  if (!row) return null;
  const theme =
    row.theme_id === null ? [] : [toTheme({ id: row.theme_id, system_name: row.theme_system_name!, name: row.theme_name!, theme_type: row.theme_type! })];
  const resident =
    row.resident_id === null
      ? null
      : {
          id: row.resident_id,
          home_id: row.resident_home_id!,
          preferred_name: row.preferred_name,
          reward_points: row.reward_points!,
          journal_enabled: row.journal_enabled!,
          voice_enabled: row.voice_enabled!,
          rewards_enabled: row.rewards_enabled!,
          first_name: row.first_name,
          last_name: row.last_name,
        };
  return {
    success: true,
    user: {
      id: row.id,
      username: row.username,
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      user_type_id: row.user_type_id,
      user_type: { id: row.user_type_id, system_name: row.type_system_name, name: row.type_name },
      themes: theme,
      has_photo: row.has_photo,
      resident,
    },
    mfa_configured: row.mfa_methods.length > 0,
    mfa_methods: row.mfa_methods,
    mfa_required: row.mfa_policy === 'required',
    permissions: { homes: Object.fromEntries(row.homes.map((h) => [h.id, { id: h.id, name: h.name }])) },
  };
}
