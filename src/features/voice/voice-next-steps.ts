/** What the young person is told after sending, per category (by name; docs/decisions.md). */
export interface VoiceSuccessState {
  readonly categoryId: string;
  readonly categoryName: string;
  readonly queuedOffline: boolean;
  /** False when the young person chose that no one else sees it (then no one will reply). */
  readonly sharedWithStaff?: boolean;
}

const CHILDLINE = 'If you feel unsafe right now, tell an adult you trust or call Childline on 0800 1111.';

const KEPT_PRIVATE =
  'You chose to keep this to yourself, so staff will not see it. If you want someone to read it, open it in My messages, choose who can see it and save.';

export function nextStepsFor(categoryName: string, sharedWithStaff = true): string {
  if (!sharedWithStaff) return `${KEPT_PRIVATE} ${CHILDLINE}`;
  const name = categoryName.trim().toLowerCase();
  if (name.includes('concern')) return `Staff will read this and talk to you about it. ${CHILDLINE}`;
  if (name.includes('complaint'))
    return 'Staff will read your complaint and tell you what happens next. You can also ask for an advocate, or call Childline on 0800 1111.';
  if (name.includes('good news')) return 'Thank you for sharing your good news! Staff will read it and may reply to you here.';
  if (name.includes('message')) return 'Staff will read your message and reply to you in Voice.';
  return 'Staff will read what you sent and reply to you in Voice.';
}

export function isVoiceSuccessState(value: unknown): value is VoiceSuccessState {
  const v = value as Partial<VoiceSuccessState> | null;
  return Boolean(v && typeof v.categoryId === 'string' && typeof v.categoryName === 'string');
}
