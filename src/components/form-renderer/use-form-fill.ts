import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { answersSchemaFor, type Answers, type FormField } from '@/contract/forms';
import { fieldIdOfErrorKey, initialValues, normaliseAnswers } from './answers';
import { readDefinition } from './definition';

export interface FormFillOptions {
  fields: readonly unknown[];
  defaultValues?: Answers | undefined;
  onChange?: ((answers: Answers) => void) | undefined;
  onSubmit(answers: Answers): Promise<void | { errors?: Record<string, string[] | string> }>;
  /** Errors to show when the form opens (the server refused these answers after they were queued). */
  initialErrors?: Record<string, string[] | string> | null | undefined;
}

const FOCUSABLE = 'input:not(:disabled), textarea:not(:disabled), select:not(:disabled), button:not(:disabled)';

/**
 * The answers schema for these fields, checked on what the controls hold turned into answers
 * (`normaliseAnswers`): the one rule shared with the server, `answersSchemaFor(…, { complete: true })`.
 */
function answersResolver(fields: readonly FormField[]): Resolver<Answers> {
  const schemaResolver = zodResolver(answersSchemaFor(fields, { complete: true })) as unknown as Resolver<Answers>;
  return (values, context, options) => schemaResolver(normaliseAnswers(fields, values), context, options);
}

/**
 * The fill-in form's state: react-hook-form over the definition's answerable fields, drafts out
 * through `onChange`, submit through `onSubmit` with the server's field errors shown beside their
 * fields and focus moved to the first question with an error (in the form's order).
 * The definition and defaultValues are read when the form mounts: give the form a new `key` for a
 * new definition or draft.
 */
export function useFormFill({ fields, defaultValues, onChange, onSubmit, initialErrors }: FormFillOptions) {
  const definition = useMemo(() => readDefinition(fields), [fields]);
  const { answerable } = definition;
  const resolver = useMemo(() => answersResolver(answerable), [answerable]);
  const [initial] = useState(() => initialValues(answerable, defaultValues));
  const form = useForm<Answers>({ defaultValues: initial, resolver, shouldFocusError: false });
  const { watch, handleSubmit, setError } = form;
  const formRef = useRef<HTMLFormElement>(null);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [focusRequest, setFocusRequest] = useState<{ id: string } | null>(null);
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);

  // Drafts: every change, as answers. The latest callback is used without resubscribing.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  useEffect(() => {
    const subscription = watch((values) => onChangeRef.current?.(normaliseAnswers(answerable, values as Answers)));
    return () => subscription.unsubscribe();
  }, [watch, answerable]);

  // Focus after the errors are on screen, so a screen reader reads the message with the field.
  useEffect(() => {
    if (!focusRequest) return;
    const box = formRef.current?.querySelector<HTMLElement>(`[data-field-id="${focusRequest.id}"]`);
    const target = box?.querySelector<HTMLElement>('[data-focus-first]:not(:disabled)') ?? box?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
  }, [focusRequest]);

  const focusFirst = useCallback(
    (ids: Iterable<string>) => {
      const wanted = new Set(ids);
      const first = answerable.find((f) => wanted.has(f.id));
      if (first) setFocusRequest({ id: first.id });
    },
    [answerable],
  );

  // Files still being kept are waited for, so their answers are in what is checked and sent.
  const inFlight = useRef(new Set<Promise<unknown>>());
  const trackFile = useCallback((task: Promise<unknown>) => {
    inFlight.current.add(task);
    const done = () => inFlight.current.delete(task);
    task.then(done, done);
  }, []);

  /** Server errors beside their fields (the first message of each), the rest above the button. */
  const placeErrors = useCallback(
    (errors: Record<string, string[] | string>, focus: boolean) => {
      const known = new Set(answerable.map((f) => f.id));
      const placed: string[] = [];
      const unplaced: string[] = [];
      for (const [key, value] of Object.entries(errors)) {
        // Only the first message per field, as the rest of the app shows them (docs/decisions.md).
        const message = Array.isArray(value) ? value.find((m): m is string => typeof m === 'string') : typeof value === 'string' ? value : undefined;
        if (!message) continue;
        const id = fieldIdOfErrorKey(key);
        if (known.has(id)) {
          setError(id, { type: 'server', message });
          placed.push(id);
        } else if (!unplaced.includes(message)) {
          unplaced.push(message);
        }
      }
      setFormErrors(unplaced);
      if (focus) focusFirst(placed);
    },
    [answerable, setError, focusFirst],
  );

  // Errors the form opens with (read once, like the answers): shown, without taking the focus.
  const [openingErrors] = useState(initialErrors);
  useEffect(() => {
    if (openingErrors) placeErrors(openingErrors, false);
  }, [openingErrors, placeErrors]);

  const valid = async (answers: Answers) => {
    const result = await onSubmit(answers);
    const errors = result && typeof result === 'object' ? result.errors : undefined;
    if (!errors || typeof errors !== 'object') return;
    placeErrors(errors, true);
  };
  const invalid = (errors: FieldErrors<Answers>) => focusFirst(Object.keys(errors));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return; // a second Enter while the first is on its way
    sending.current = true;
    setBusy(true);
    try {
      while (inFlight.current.size > 0) await Promise.allSettled([...inFlight.current]);
      setFormErrors([]);
      await handleSubmit(valid, invalid)();
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return { form, definition, formRef, formErrors, submit, busy, trackFile };
}
