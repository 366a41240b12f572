import type { FastifyInstance } from 'fastify';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import type { SignedIn } from '../../plugins/session';
import { ownResidentRow } from '../access';

/** The young person's flags of the two entry kinds (residents table). */
export interface EntryFlags {
  journal_enabled: number;
  voice_enabled: number;
}

/** Whether the young person's journal (or voice) is switched on (SPEC §1, §6 feature flags). */
export const switchedOn = (flags: EntryFlags, kind: EntryKind): boolean => (kind === 'journal' ? flags.journal_enabled : flags.voice_enabled) === 1;

/** A young person's write in a journal (voice) that staff switched off: the same 403 for entries and their threads. */
export const switchedOffError = () => new HttpError(403, chosen.forbidden);

/**
 * A switched-off journal (voice) takes no new words from its young person (docs/decisions.md "Staff
 * switch a young person's features"): no entry, no reply in a thread, no edit of a reply (its text,
 * reaction or files). Checked first, as for entries, so a create sent again after the switch is
 * refused too. Staff have no resident record: they go on commenting. Reads stay: the words are theirs.
 */
export async function refuseWhenSwitchedOff(app: FastifyInstance, auth: SignedIn, kind: EntryKind): Promise<void> {
  const own = await ownResidentRow(app.db, auth).select(['residents.journal_enabled', 'residents.voice_enabled']).executeTakeFirst();
  if (own && !switchedOn(own, kind)) throw switchedOffError();
}
