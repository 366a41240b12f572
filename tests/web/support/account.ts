import type { Account } from '@/contract/users';

/** An account as GET /v1/auth/user returns it. */
export function makeAccount(overrides: { type?: string; flags?: Partial<Record<'journal_enabled' | 'voice_enabled' | 'rewards_enabled', 0 | 1>>; mfaConfigured?: boolean } = {}): Account {
  const type = overrides.type ?? 'young_person_user';
  return {
    success: true,
    user: {
      id: '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10',
      username: 'sam',
      first_name: 'Samuel',
      last_name: 'Jones',
      email: null,
      user_type_id: type === 'young_person_user' ? 3 : 2,
      user_type: { id: type === 'young_person_user' ? 3 : 2, system_name: type, name: type },
      themes: [],
      has_photo: false,
      resident:
        type === 'young_person_user'
          ? {
              id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
              home_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
              first_name: 'Samuel',
              last_name: 'Jones',
              preferred_name: 'Sam',
              reward_points: 40,
              journal_enabled: 1,
              voice_enabled: 1,
              rewards_enabled: 0,
              ...overrides.flags,
            }
          : null,
    },
    mfa_configured: overrides.mfaConfigured ?? false,
    mfa_methods: [],
    mfa_required: false,
    permissions: { homes: { '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d': { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Oak House' } } },
  };
}
