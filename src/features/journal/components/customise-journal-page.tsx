import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { JOURNAL_COLOURS, JOURNAL_PAPERS, JOURNAL_THEME_NOT_FOUND } from '@/contract/residents';
import { useResidentDetails } from '@/data/hooks';
import type { ResidentDoc } from '@/data/replica';
import { useOnlineStatus } from '@/data/use-online-status';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { ERROR_UPDATING_JOURNAL, updateAppSettings } from '../actions/update-app-settings';
import { retryAppSettings } from '../actions/retry-app-settings';
import { JOURNAL_PALETTE, JOURNAL_PAPER_NAMES, journalSurfaceStyle, knownLook, type JournalColour, type JournalPaper } from '../journal-surface';
import './customise-journal.css';

export const PENDING_OFFLINE_TEXT = 'Saved on this device — it will be sent when you are online';
export const PENDING_ONLINE_TEXT = 'Saving…';
export const SAVED_TEXT = 'Saved';
export const UNSAVED_TEXT = 'You have changes that are not saved yet.';

type Look = ReturnType<typeof knownLook>;

/** SPEC §8 "Customise journal": the unknown-theme message as the server gives it, anything else as one sentence. */
export const failureText = (message: string | null): string => (message === JOURNAL_THEME_NOT_FOUND ? JOURNAL_THEME_NOT_FOUND : ERROR_UPDATING_JOURNAL);

/**
 * /journal/customise: the journal's colour and paper, with a live preview of the writing surface.
 * Reads and writes the replica (the resident document), so it works the same offline: Save goes
 * into the outbox and the line under the button says where the change is.
 */
export function CustomiseJournalPage() {
  const details = useResidentDetails();
  const doc = details.data;

  if (!doc) {
    return (
      <div className="page">
        <PageHeading>Customise journal</PageHeading>
        {details.loading ? (
          <LoadingText />
        ) : (
          <EmptyState
            title="No journal styles on this device yet."
            actions={
              <Link to="/journal" className="button button--primary">
                Back to journal
              </Link>
            }
          >
            Colours and paper styles arrive when Hearth has synced with your home.
          </EmptyState>
        )}
      </div>
    );
  }
  return <CustomiseForm doc={doc} />;
}

function CustomiseForm({ doc }: { doc: ResidentDoc }) {
  const online = useOnlineStatus();
  const saved = knownLook(doc.app_settings);
  const [draft, setDraft] = useState<Look | null>(null);
  const [busy, setBusy] = useState(false);
  const look: Look = draft ?? saved;
  const changed = look.journal_colour !== saved.journal_colour || look.journal_paper !== saved.journal_paper;
  const surface = journalSurfaceStyle(look);

  const choose = (patch: Partial<Look>) => setDraft({ ...look, ...patch });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const result = await updateAppSettings(doc.id, doc.app_settings, look);
      if (result.ok) setDraft(null);
    } finally {
      setBusy(false);
    }
  };

  const onRetry = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await retryAppSettings(doc.id, doc.sync_outbox_id, doc.app_settings);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page customise-journal">
      <PageHeading>Customise journal</PageHeading>
      <form className="customise-journal__form" aria-label="Journal look" onSubmit={(event) => void onSubmit(event)}>
        <fieldset className="customise-journal__group">
          <legend>Colour</legend>
          <div className="swatches">
            {JOURNAL_COLOURS.map((colour: JournalColour) => (
              <label key={colour} className="choice">
                <input
                  type="radio"
                  name="journal_colour"
                  value={colour}
                  checked={look.journal_colour === colour}
                  onChange={() => choose({ journal_colour: colour })}
                />
                <span className="choice__swatch" aria-hidden="true" style={{ backgroundColor: JOURNAL_PALETTE[colour].swatch }} />
                <span className="choice__name">{JOURNAL_PALETTE[colour].name}</span>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="customise-journal__group">
          <legend>Paper</legend>
          <div className="papers">
            {JOURNAL_PAPERS.map((paper: JournalPaper) => {
              const sample = journalSurfaceStyle({ journal_colour: look.journal_colour, journal_paper: paper });
              return (
                <label key={paper} className="choice">
                  <input
                    type="radio"
                    name="journal_paper"
                    value={paper}
                    checked={look.journal_paper === paper}
                    onChange={() => choose({ journal_paper: paper })}
                  />
                  <span className={`choice__paper ${sample.className}`} style={sample.style} aria-hidden="true" />
                  <span className="choice__name">{JOURNAL_PAPER_NAMES[paper]}</span>
                </label>
              );
            })}
          </div>
        </fieldset>

        <section className="customise-journal__preview" aria-labelledby="journal-preview-heading">
          <h2 id="journal-preview-heading">Preview</h2>
          <div
            data-testid="journal-preview"
            className={surface.className}
            style={surface.style}
            aria-label={`${JOURNAL_PALETTE[look.journal_colour].name}, ${JOURNAL_PAPER_NAMES[look.journal_paper].toLowerCase()} paper`}
            role="img"
          >
            <p>Today I went to the park with my friends.</p>
            <p>It was sunny and we played football.</p>
          </div>
        </section>

        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy || (!changed && doc.sync_state !== 'failed')}>
            Save
          </button>
          <Link to="/journal" className="button button--secondary">
            Back to journal
          </Link>
        </div>

        <SaveState doc={doc} online={online} changed={changed} busy={busy} onRetry={() => void onRetry()} />
      </form>
    </div>
  );
}

function SaveState({ doc, online, changed, busy, onRetry }: { doc: ResidentDoc; online: boolean; changed: boolean; busy: boolean; onRetry: () => void }) {
  if (doc.sync_state === 'failed') {
    return (
      <div className="customise-journal__state customise-journal__state--failed" role="alert">
        <p>{failureText(doc.sync_message)}</p>
        <button type="button" className="button button--secondary" onClick={onRetry} disabled={busy}>
          Try again
        </button>
      </div>
    );
  }
  let text: string;
  if (changed) text = UNSAVED_TEXT;
  else if (doc.sync_state === 'pending') text = online ? PENDING_ONLINE_TEXT : PENDING_OFFLINE_TEXT;
  else text = SAVED_TEXT;
  return (
    <p className={`customise-journal__state customise-journal__state--${changed ? 'unsaved' : doc.sync_state}`} role="status">
      {text}
    </p>
  );
}
