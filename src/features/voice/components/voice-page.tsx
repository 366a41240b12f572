import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { EntryForm } from '@/entries/components/entry-form';
import { newVoiceDraftKey } from '@/entries/data/draft-keys';
import { FirstVisitNote } from '@/entries/components/first-visit-note';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { messages } from '@/contract/messages';
import { useAssociatedUsers, useResidentDetails } from '@/data/hooks';
import { useEmojis, useVoiceCategories } from '@/entries/hooks/use-entries';
import { useFirstIndexVisit } from '@/data/hooks/use-first-index-visit';
import { useNewestDraft } from '@/data/hooks/use-draft';
import type { VoiceCategoryDoc } from '@/data/replica/types';
import { saveVoiceEntry } from '../actions/save-voice-entry';
import type { VoiceSuccessState } from '../voice-next-steps';
import './voice.css';

/** "Your voice": choose what it is about, then write it and send it. */
export function VoicePage() {
  const navigate = useNavigate();
  const categories = useVoiceCategories();
  const staff = useAssociatedUsers().data;
  const emojis = useEmojis().data;
  const [chosen, setChosen] = useState<VoiceCategoryDoc | null>(null);
  // The form lets the person change the category: the success screen names the one that was sent.
  const sentCategory = useRef<string | null>(null);
  const sentToStaff = useRef(true);
  // Voice is how a young person reaches the adults: unlike the journal, it starts shared with their
  // key worker and home management (the form says so plainly and they can change it).
  const keyWorkerId = useResidentDetails().data?.key_worker?.id ?? null;
  const defaultSharedWith = keyWorkerId && staff.some((person) => person.id === keyWorkerId) ? [keyWorkerId] : [];

  const firstVisit = useFirstIndexVisit('voice');

  // Coming back to something started and not sent (a reload, a session that expired): the form it
  // was written in opens again, once; choosing something else later keeps each one's words.
  const newest = useNewestDraft(categories.data.map((category) => newVoiceDraftKey(category.id)));
  const reopened = useRef(false);
  useEffect(() => {
    if (reopened.current || categories.loading || newest.loading) return;
    reopened.current = true;
    const started = categories.data.find((category) => newest.key === newVoiceDraftKey(category.id));
    if (started) setChosen((current) => current ?? started);
  }, [categories.loading, categories.data, newest.loading, newest.key]);

  return (
    <div className="page page--prose">
      <PageHeading>Your voice</PageHeading>
      {chosen ? (
        <section aria-labelledby="voice-write-title">
          <h2 id="voice-write-title" className="section-title">
            {chosen.name}
          </h2>
          {chosen.description ? <p className="lead">{chosen.description}</p> : null}
          <p>
            <button type="button" className="button button--ghost" onClick={() => setChosen(null)}>
              Choose something else
            </button>
          </p>
          <EntryForm
            key={chosen.id}
            kind="voice"
            draftKey={newVoiceDraftKey(chosen.id)}
            initial={{ categoryId: chosen.id, sharedWith: defaultSharedWith, sharedWithManagement: true }}
            staff={staff}
            emojis={emojis}
            categories={categories.data}
            submitLabel="Send"
            onSubmit={(draft) => {
              const categoryId = draft.categoryId || chosen.id;
              sentCategory.current = categoryId;
              sentToStaff.current = (draft.sharedWith?.length ?? 0) > 0 || Boolean(draft.sharedWithManagement);
              return saveVoiceEntry({ ...draft, categoryId });
            }}
            onSaved={(result) => {
              const sent = categories.data.find((c) => c.id === sentCategory.current) ?? chosen;
              const state: VoiceSuccessState = {
                categoryId: sent.id,
                categoryName: sent.name,
                queuedOffline: result.queuedOffline,
                sharedWithStaff: sentToStaff.current,
              };
              void navigate('/voice/success', { state });
            }}
          />
        </section>
      ) : (
        <>
          <p className="lead">Raise a worry or a complaint, message staff, or share good news. What would you like to do?</p>
          <FirstVisitNote show={firstVisit} title="New to Voice?">
            <ul>
              <li>Voice is how you tell the adults at your home something. Choose what it is about, then write it.</li>
              <li>Your key worker and home management will see it, unless you choose otherwise. They can reply, and their replies are in My messages.</li>
              <li>If you feel unsafe right now, tell an adult you trust or call Childline free on 0800 1111.</li>
            </ul>
          </FirstVisitNote>
          <HeldRegion name="voice.choices" loading={categories.loading}>
            {categories.loading ? <LoadingText /> : null}
            {!categories.loading && categories.data.length === 0 ? <p>{messages.voiceMissingData}</p> : null}
            <ul className="voice-choices">
              {categories.data.map((category) => (
                <li key={category.id}>
                  <button type="button" className="voice-choice" onClick={() => setChosen(category)}>
                    <span className="voice-choice__name">{category.name}</span>
                    {category.description ? <span className="voice-choice__description">{category.description}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          </HeldRegion>
          {/* With the choices, not under their "Loading…" to be pushed down when they arrive. */}
          {categories.loading ? null : (
            <p>
              <Link to="/voice/entries" className="button button--secondary">
                My messages
              </Link>
            </p>
          )}
        </>
      )}
    </div>
  );
}
