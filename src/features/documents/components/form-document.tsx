import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { FormFill } from '@/components/form-renderer/form-fill';
import { FormView } from '@/components/form-renderer/form-view';
import type { FormFilePreviewProps, FormFiles, RelatedFormOption } from '@/components/form-renderer/types';
import { LoadingText } from '@/components/loading-text';
import { useToast } from '@/components/use-toast';
import type { EntryFile } from '@/contract/entries';
import { isAnswered, type Answers, type FileAnswer } from '@/contract/forms';
import { useDocumentFile } from '@/data/documents/use-document-file';
import { useDraft } from '@/data/hooks/use-draft';
import { onFlushDrafts } from '@/data/drafts';
import { documentFile, type DocumentWithState } from '@/data/replica/documents';
import type { DocumentDoc } from '@/data/replica/types';
import { useOnlineStatus } from '@/data/use-online-status';
import { readFormFile, storeFormFile } from '../actions/form-files';
import { documentDraftKey, submitDocumentForm } from '../actions/submit-form';
import { documentTexts } from '../document-texts';
import { formatDate } from '../document-format';
import { useFormNames } from '@/data/hooks/use-form-names';

/** What a form being filled in keeps (encrypted, in the replica): the answers and the details of the files added. */
export interface DocumentDraft {
  readonly answers: Answers;
  readonly files: readonly EntryFile[];
}

const SAVE_AFTER_MS = 400;

const fileIdsIn = (answers: Answers): Set<string> => {
  const ids = new Set<string>();
  for (const value of Object.values(answers)) {
    for (const answer of Array.isArray(value) ? value : [value]) {
      const id = answer && typeof answer === 'object' ? (answer as FileAnswer).file_id : undefined;
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
};

/**
 * A file the young person added on this device (kept encrypted as `local:<id>` until it is sent).
 * A picture shows itself; any other file shows its name (the device keeps names beside the
 * answers), so two PDFs added to one question can be told apart.
 */
function localPreview(nameOf: (id: string) => string | undefined) {
  return function LocalPreview({ file, alt }: FormFilePreviewProps) {
    return <LocalFile file={file} alt={alt} name={nameOf(file.file_id)} />;
  };
}

function LocalFile({ file, alt, name }: FormFilePreviewProps & { name: string | undefined }) {
  const [url, setUrl] = useState<{ url: string; type: string } | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    let live = true;
    let made: string | null = null;
    void readFormFile(file.file_id, alt).then((blob) => {
      if (!live || !blob) return;
      made = URL.createObjectURL(blob);
      setUrl({ url: made, type: blob.type });
    });
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.file_id, alt]);
  if (!url) return <span className="attachment attachment--missing">{alt}</span>;
  if (url.type.startsWith('image/')) return <img src={url.url} alt={alt} className="attachment__img" width={120} height={120} />;
  return <span className="attachment">{name ? `${name} (added)` : `${alt} (added)`}</span>;
}

/** A file answer the server has (the young person's submission), from the device when kept. */
function submissionPreview(doc: DocumentDoc) {
  return function SubmissionPreview({ file, alt }: FormFilePreviewProps) {
    const ref = documentFile(doc, file.file_id);
    const view = useDocumentFile(doc.id, ref);
    if (view.status !== 'ready') return <span className="attachment attachment--missing">{alt} (not on this device)</span>;
    if ((ref?.mime ?? '').startsWith('image/')) return <img src={view.url} alt={alt} className="attachment__img" width={120} height={120} />;
    return (
      <a className="attachment" href={view.url} target="_blank" rel="noreferrer">
        Open {alt}
      </a>
    );
  };
}

/** The files of the form being filled in: each is prepared (photos resized) and kept encrypted on the device. */
function useFormFiles(onStored: (file: EntryFile) => void, nameOf: (id: string) => string | undefined): FormFiles {
  const report = useRef(onStored);
  report.current = onStored;
  const names = useRef(nameOf);
  names.current = nameOf;
  return useMemo<FormFiles>(
    () => ({
      async store(blob: Blob, name: string): Promise<FileAnswer> {
        const stored = await storeFormFile(blob, name);
        report.current(stored);
        return { file_id: stored.id };
      },
      Preview: localPreview((id) => names.current(id)),
    }),
    [],
  );
}

function FillIn({ item, relatedForms, onQueued }: { item: DocumentWithState; relatedForms: readonly RelatedFormOption[]; onQueued: () => void }) {
  const { doc, state } = item;
  const toast = useToast();
  const online = useOnlineStatus();
  const draft = useDraft<DocumentDraft>(documentDraftKey(doc.id));
  const [initial, setInitial] = useState<DocumentDraft | null | undefined>(undefined);
  const answersRef = useRef<Answers>({});
  const filesRef = useRef<Map<string, EntryFile>>(new Map());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [saving, setSaving] = useState<'idle' | 'waiting' | 'saved'>('idle');
  const sent = useRef(false);
  const { save } = draft;
  const refused = state?.sync_state === 'failed' && state.outgoing ? state : null;

  // The starting answers: the draft, else (after a refusal) the answers that were refused.
  useEffect(() => {
    if (initial !== undefined || draft.loading) return;
    const value = draft.value ?? (refused?.outgoing ? { answers: refused.outgoing.answers, files: refused.outgoing.files } : null);
    answersRef.current = value?.answers ?? {};
    filesRef.current = new Map((value?.files ?? []).map((file) => [file.id, file]));
    setInitial(value);
  }, [draft.loading, draft.value, initial, refused]);

  const persist = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const answers = answersRef.current;
    const ids = fileIdsIn(answers);
    return save({ answers, files: [...filesRef.current.values()].filter((file) => ids.has(file.id)) }).then((saved) => {
      if (!timer.current) setSaving(saved ? 'saved' : 'idle');
    });
  }, [save]);

  useEffect(
    () => () => {
      if (timer.current) void persist();
    },
    [persist],
  );
  // The sign-out warning counts drafts: what waits is stored first.
  useEffect(() => onFlushDrafts(async () => (timer.current ? persist() : undefined)), [persist]);

  const files = useFormFiles(
    (file) => {
      filesRef.current.set(file.id, file);
    },
    (id) => filesRef.current.get(id)?.name,
  );

  const onChange = (answers: Answers) => {
    answersRef.current = answers;
    if (sent.current) return;
    if (timer.current) clearTimeout(timer.current);
    setSaving('waiting');
    timer.current = setTimeout(persist, SAVE_AFTER_MS);
  };

  const onSubmit = async (answers: Answers) => {
    // The draft is written now, so it is there if the server refuses the answers.
    answersRef.current = answers;
    void persist();
    const ids = fileIdsIn(answers);
    const result = await submitDocumentForm(
      doc.id,
      answers,
      [...filesRef.current.values()].filter((file) => ids.has(file.id)),
    );
    if (!result.ok) {
      if (Object.keys(result.errors).length === 0) toast.error(result.message || documentTexts.submitFailed);
      return { errors: result.errors };
    }
    sent.current = true;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (result.queuedOffline) toast.success(documentTexts.submitOffline);
    onQueued();
    return undefined;
  };

  if (initial === undefined) return <LoadingText />;
  const started = initial !== null && Object.values(initial.answers).some(isAnswered);
  return (
    <>
      {refused ? (
        <div className="doc-refused" role="alert">
          <p>
            <strong>Your answers were not sent:</strong> {refused.sync_message || documentTexts.submitFailed}
          </p>
          <p>Check the answers below and send them again.</p>
        </div>
      ) : null}
      {started && !refused ? <p className="small-print">We kept what you started on this device.</p> : null}
      {online ? null : (
        <p className="doc-note" role="status">
          You are offline. You can fill this in now: it is saved on this device and sent when you are back online.
        </p>
      )}
      <FormFill
        fields={doc.form?.fields ?? []}
        defaultValues={initial?.answers ?? {}}
        files={files}
        relatedForms={relatedForms}
        onChange={onChange}
        onSubmit={onSubmit}
        submitLabel="Send my answers"
        aria-label={doc.title}
        headingLevel={2}
        initialErrors={refused?.errors ?? null}
      />
      <p className="small-print" role="status">
        {saving === 'saved' ? 'Draft saved on this device.' : saving === 'waiting' ? 'Saving your draft…' : ''}
      </p>
    </>
  );
}

/**
 * "Your answers" above the answers on their way or sent. After "Send my answers" the form (and the
 * button that had the focus) gives way to them, so the focus comes here; the waiting and the sent
 * copy render the same heading element, so it keeps the focus when the server's copy arrives.
 */
function AnswersTitle({ id, heading, focusOnMount }: { id: string; heading: RefObject<HTMLHeadingElement | null>; focusOnMount: RefObject<boolean> }) {
  useEffect(() => {
    if (!focusOnMount.current) return;
    focusOnMount.current = false;
    heading.current?.focus();
  }, [heading, focusOnMount]);
  return (
    <h2 id={id} className="section-title" tabIndex={-1} ref={heading}>
      Your answers
    </h2>
  );
}

/**
 * A form document: filled in with the shared form renderer (the draft kept encrypted on the device,
 * files too), sent through the outbox; while on its way, the answers as they will arrive; once the
 * server has them, the read-only copy from the replica (the row's own submission).
 */
export function FormDocument({ item }: { item: DocumentWithState }) {
  const { doc, state } = item;
  const online = useOnlineStatus();
  const names = useFormNames();
  const sentPreview = useMemo(() => ({ Preview: submissionPreview(doc) }), [doc]);
  const outgoingFiles = state?.outgoing?.files;
  const pendingPreview = useMemo(() => ({ Preview: localPreview((id) => outgoingFiles?.find((file) => file.id === id)?.name) }), [outgoingFiles]);
  const fields = doc.form?.fields ?? [];
  const answersTitle = useRef<HTMLHeadingElement>(null);
  // Answers just queued whose heading is not on screen yet (the replica has not said so).
  const focusAnswers = useRef(false);
  const onQueued = useCallback(() => {
    if (answersTitle.current) answersTitle.current.focus();
    else focusAnswers.current = true;
  }, []);

  if (doc.submission) {
    return (
      <section className="doc-form" aria-labelledby="doc-form-sent">
        <AnswersTitle id="doc-form-sent" heading={answersTitle} focusOnMount={focusAnswers} />
        <p className="doc-note" role="status">
          ✓ You sent this on {formatDate(doc.submission.submitted_at)}. Staff at your home can read it.
        </p>
        <FormView fields={fields} answers={doc.submission.answers} files={sentPreview} relatedForms={names} headingLevel={3} />
      </section>
    );
  }
  if (state?.outgoing && state.sync_state === 'pending') {
    return (
      <section className="doc-form" aria-labelledby="doc-form-waiting">
        <AnswersTitle id="doc-form-waiting" heading={answersTitle} focusOnMount={focusAnswers} />
        <p className="doc-note" role="status">
          {online ? documentTexts.submitSending : documentTexts.submitWaiting}
        </p>
        <FormView fields={fields} answers={state.outgoing.answers} files={pendingPreview} relatedForms={names} headingLevel={3} />
      </section>
    );
  }
  return (
    <section className="doc-form" aria-label="Fill in the form">
      <FillIn key={`${doc.id}:${doc.form?.form_version_id ?? ''}:${state?.sync_outbox_id ?? ''}`} item={item} relatedForms={names} onQueued={onQueued} />
    </section>
  );
}
