import type { Theme } from '../../../src/contract/users';

/** A kids_app theme row as the contract's Theme (account and lookups answer the same shape). */
export const toTheme = (row: { id: number; system_name: Theme['system_name']; name: string; theme_type: 'kids_app' }): Theme => ({
  id: row.id,
  system_name: row.system_name,
  name: row.name,
  theme_type: { system_name: row.theme_type },
});
