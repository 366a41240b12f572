import { describe, expect, it } from 'vitest';
import * as appConfig from '@/contract/app-config';
import { entryKindSchema, fileModuleSchema } from '@/contract/entries';
import { ENTRY_KINDS, isEntryKind, type EntryKind } from '@/contract/entry-kind';
import { entryTypeSchema } from '@/contract/feedback';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '@/contract/http';

describe('contract names defined once', () => {
  it('CSRF cookie and header: app-config re-exports http.ts', () => {
    expect(CSRF_COOKIE_NAME).toBe('XSRF-TOKEN');
    expect(CSRF_HEADER_NAME).toBe('X-XSRF-TOKEN');
    expect(appConfig.CSRF_COOKIE).toBe(CSRF_COOKIE_NAME);
    expect(appConfig.CSRF_HEADER).toBe(CSRF_HEADER_NAME);
    expect(appConfig.SESSION_COOKIE).toBe('hearth_session');
  });

  it('entry kinds: one list, and the zod enums follow it', () => {
    expect(ENTRY_KINDS).toEqual(['journal', 'voice']);
    const kinds: readonly EntryKind[] = ENTRY_KINDS;
    expect(entryKindSchema.options).toEqual([...kinds]);
    expect(entryTypeSchema).toBe(entryKindSchema);
    expect(fileModuleSchema.options).toEqual(['journal', 'voice', 'comment', 'task_comment', 'task_log', 'reward']);
    expect(ENTRY_KINDS.every(isEntryKind)).toBe(true);
    expect(isEntryKind('comment')).toBe(false);
    expect(isEntryKind(undefined)).toBe(false);
    expect(entryKindSchema.safeParse('voice').success).toBe(true);
    expect(entryKindSchema.safeParse('rewards').success).toBe(false);
  });
});
