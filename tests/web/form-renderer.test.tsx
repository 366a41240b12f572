import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import axe from 'axe-core';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formLimits, formMessages, type Answers } from '@/contract/forms';
import { readDefinition } from '@/components/form-renderer/definition';
import { FormFill, type FormFillProps } from '@/components/form-renderer/form-fill';
import { FormView } from '@/components/form-renderer/form-view';
import { ANSWERABLE_IDS, EVERY_KIND, FILLED, RELATED, RELATED_FORMS, fakeFiles, fileId, pngFile } from './support/form-fixtures';

beforeEach(() => {
  // jsdom has no 2D context (like a browser with canvas switched off): the renderer must cope.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  // user-event walks radio groups with CSS.escape, which jsdom lacks.
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
});

/** The answer (<dd>) shown for a question (<dt>) in read-only mode. */
function answerOf(question: string): HTMLElement {
  const dt = screen.getByText(question, { selector: 'dt' });
  const dd = dt.nextElementSibling;
  if (!(dd instanceof HTMLElement) || dd.tagName !== 'DD') throw new Error(`no answer after "${question}"`);
  return dd;
}

/** The text of everything an element's aria-describedby points at. */
function descriptionOf(element: Element): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

/** Tabs forward until `target` has focus: proves it is reachable by keyboard, in document order. */
async function tabTo(user: UserEvent, target: HTMLElement, limit = 80) {
  for (let i = 0; i < limit && document.activeElement !== target; i += 1) await user.tab();
  expect(document.activeElement).toBe(target);
}

/**
 * The file dialog belongs to the operating system: Space on a focused file input opens it
 * (user-event dispatches the click a browser would), and here the "dialog" answers with files.
 */
async function chooseFiles(user: UserEvent, input: HTMLElement, files: File[]) {
  expect(document.activeElement).toBe(input);
  const answer = () => {
    Object.defineProperty(input, 'files', { configurable: true, value: Object.assign([...files], { item: (i: number) => files[i] ?? null }) });
    fireEvent.change(input);
  };
  input.addEventListener('click', answer, { once: true });
  await user.keyboard(' ');
}

async function axeViolations(container: HTMLElement) {
  // jsdom has no layout or computed colours, so contrast cannot be judged here; the e2e suite checks it in Chromium.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function renderFill(overrides: Partial<FormFillProps> = {}) {
  const fake = fakeFiles();
  const onSubmit = vi.fn<FormFillProps['onSubmit']>(async () => undefined);
  const onChange = vi.fn<(answers: Answers) => void>();
  const view = render(
    <main>
      <FormFill fields={EVERY_KIND} files={fake.files} relatedForms={RELATED_FORMS} onSubmit={onSubmit} onChange={onChange} submitLabel="Save" aria-label="Objective log" {...overrides} />
    </main>,
  );
  return { ...view, ...fake, onSubmit: (overrides.onSubmit as typeof onSubmit | undefined) ?? onSubmit, onChange };
}

const none = Object.fromEntries(ANSWERABLE_IDS.map((id) => [id, null]));

describe('FormView (read-only)', () => {
  it('shows every kind of answer in words, headings as headings, and unknown rows as "can\'t be shown"', () => {
    const { files } = fakeFiles();
    render(
      <main>
        <FormView fields={EVERY_KIND} answers={FILLED} files={files} relatedForms={RELATED_FORMS} />
      </main>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'About the activity' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Attendance' })).toBeTruthy();

    expect(answerOf('What did you do?').textContent).toBe('Made spaghetti bolognese');
    // Line breaks kept, as text: a <br> between the lines.
    const how = answerOf('How did it go?');
    expect(how.textContent).toBe('Chopped the onions.Everyone had seconds.');
    expect(how.querySelectorAll('br')).toHaveLength(1);
    expect(answerOf('Needed some help').textContent).toBe('Yes');
    expect(answerOf('On time every day?').textContent).toBe('No');
    expect(within(answerOf('Skills used')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Planning', 'Cooking']);
    expect(answerOf('Best day').textContent).toBe('Tuesday');
    expect(answerOf('How confident do you feel?').textContent).toBe('7 (from 1 to 10)');

    const table = within(answerOf('The week')).getByRole('table', { name: 'The week' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Day', 'Arrived']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['Monday', '08:40'],
      ['Tuesday', ''],
    ]);

    const colour = answerOf('Colour of the week');
    expect(colour.textContent).toBe('Green #3aa655');
    expect((colour.querySelector('.form-swatch__dot') as HTMLElement).style.backgroundColor).toBe('rgb(58, 166, 85)');

    // A related form the caller has no name for is shown by its short id, never dropped.
    expect(within(answerOf('Related objectives')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Independence skills', 'Form a1b2c3d4']);

    expect(within(answerOf('A photo of it')).getByRole('img', { name: 'A photo of it' }).getAttribute('src')).toBe(`/files/${fileId(101)}`);
    expect(within(answerOf('Work to be proud of')).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual([
      'Work to be proud of: file 1 of 2',
      'Work to be proud of: file 2 of 2',
    ]);
    expect(within(answerOf('Staff signature')).getByRole('img', { name: 'Staff signature' }).getAttribute('src')).toBe(`/files/${fileId(104)}`);

    expect(screen.getAllByText(formMessages.cannotShow)).toHaveLength(2);
    expect(screen.getByText('How many stars?')).toBeTruthy();
    expect(screen.queryByText('5')).toBeNull();
  });

  it('says "Not answered" for every question without an answer, or with one that does not fit', () => {
    const { files } = fakeFiles();
    const misfits: Answers = { title: 42, needed_help: 'yes', on_time: 'maybe', confidence: 'seven', week: 'Monday', photo: 'x.png', work: [], related: [], skills: [] };
    const { rerender } = render(<FormView fields={EVERY_KIND} answers={{}} files={files} />);
    expect(screen.getAllByText(formMessages.notAnswered)).toHaveLength(ANSWERABLE_IDS.length);
    rerender(<FormView fields={EVERY_KIND} answers={misfits} files={files} />);
    expect(screen.getAllByText(formMessages.notAnswered)).toHaveLength(ANSWERABLE_IDS.length);
  });

  it('never renders an answer as HTML', () => {
    const { files } = fakeFiles();
    const { container } = render(<FormView fields={EVERY_KIND} answers={{ title: '<img src=x onerror="alert(1)"><b>bold</b>' }} files={files} />);
    expect(answerOf('What did you do?').textContent).toBe('<img src=x onerror="alert(1)"><b>bold</b>');
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('img[src="x"]')).toBeNull();
  });

  it('has no axe violations', async () => {
    const { files } = fakeFiles();
    const { container } = render(
      <main>
        <FormView fields={EVERY_KIND} answers={FILLED} files={files} relatedForms={RELATED_FORMS} />
      </main>,
    );
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('FormFill (fill-in)', () => {
  it('answers every kind with the keyboard alone and submits with Enter', async () => {
    const user = userEvent.setup();
    const { onSubmit, store, kept } = renderFill();
    await user.tab();

    await tabTo(user, screen.getByRole('textbox', { name: 'What did you do? (required)' }));
    await user.keyboard('Cooked dinner');
    await tabTo(user, screen.getByRole('textbox', { name: 'How did it go?' }));
    await user.keyboard('Fine{Enter}Really good');
    await tabTo(user, screen.getByRole('checkbox', { name: 'Needed some help' }));
    await user.keyboard(' ');
    await tabTo(user, screen.getByRole('radio', { name: 'Yes' }));
    await user.keyboard('{ArrowRight}');
    expect((screen.getByRole('radio', { name: 'No' }) as HTMLInputElement).checked).toBe(true);
    await tabTo(user, screen.getByRole('checkbox', { name: 'Planning' }));
    await user.keyboard(' ');
    await tabTo(user, screen.getByRole('checkbox', { name: 'Cooking' }));
    await user.keyboard(' ');
    await tabTo(user, screen.getByRole('radio', { name: 'Monday' }));
    await user.keyboard('{ArrowDown}');
    expect((screen.getByRole('radio', { name: 'Tuesday' }) as HTMLInputElement).checked).toBe(true);

    const slider = screen.getByRole('slider', { name: 'How confident do you feel? (required)' });
    expect(slider.getAttribute('aria-valuetext')).toBe('Not answered, from 1 to 10');
    await tabTo(user, slider);
    await user.keyboard('{End}{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(slider.getAttribute('aria-valuetext')).toBe('7 (from 1 to 10)');
    expect(slider.closest('.form-slider')?.querySelector('output')?.textContent).toBe('7');

    await tabTo(user, screen.getByRole('button', { name: 'Add row' }));
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Day, row 1' }));
    await user.keyboard('Monday');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Arrived, row 1' }));
    await user.keyboard('08:40');
    for (const day of ['Tuesday', 'Wednesday']) {
      await tabTo(user, screen.getByRole('button', { name: 'Add row' }));
      await user.keyboard('{Enter}');
      await user.keyboard(day);
    }
    await tabTo(user, screen.getByRole('button', { name: 'Remove row 3' }));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('textbox', { name: 'Day, row 3' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Day, row 2' }));

    await tabTo(user, screen.getByRole('radio', { name: 'Red #d20f39' }));
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect((screen.getByRole('radio', { name: 'Blue #1e66f5' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Colour code' })).toHaveProperty('value', '#1e66f5');

    await tabTo(user, screen.getByRole('checkbox', { name: 'Independence skills' }));
    await user.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Form a1b2c3d4' })).toBeTruthy();

    const photoInput = screen.getByLabelText('Choose a photo');
    await tabTo(user, photoInput);
    await chooseFiles(user, photoInput, [pngFile('dinner.png')]);
    expect(await screen.findByRole('img', { name: 'A photo of it' })).toBeTruthy();
    // The picker stays, so focus is still where the person left it.
    expect(document.activeElement).toBe(photoInput);

    const filesInput = screen.getByLabelText('Add files');
    await tabTo(user, filesInput);
    await chooseFiles(user, filesInput, [pngFile('essay.png'), pngFile('poster.png')]);
    expect(await screen.findByRole('img', { name: 'Work to be proud of: file 2 of 2' })).toBeTruthy();
    expect(descriptionOf(filesInput)).toBe(formMessages.filesAdded(2, formLimits.maxEmbeddedFiles));

    await tabTo(user, screen.getByRole('button', { name: 'Type your name instead' }));
    await user.keyboard('{Enter}');
    const name = screen.getByRole('textbox', { name: 'Type your full name' });
    expect(document.activeElement).toBe(name);
    await user.keyboard('Jamie Smith{Enter}');
    expect(await screen.findByRole('img', { name: 'Staff signature' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign again' })));
    expect(onSubmit).not.toHaveBeenCalled(); // Enter in the name box saved the signature, not the form

    await tabTo(user, screen.getByRole('button', { name: 'Save' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      title: 'Cooked dinner',
      how_it_went: 'Fine\nReally good',
      needed_help: true,
      on_time: 'no',
      skills: ['planning', 'cooking'],
      best_day: ['tue'],
      confidence: 7,
      week: [{ day: 'Monday', arrived: '08:40' }, { day: 'Tuesday' }],
      mood_colour: '#1e66f5',
      related: [RELATED.skills],
      photo: { file_id: fileId(1) },
      work: [{ file_id: fileId(2) }, { file_id: fileId(3) }],
      staff_signature: { file_id: fileId(4) },
    });
    expect(store.mock.calls.map(([, fileName]) => fileName)).toEqual(['dinner.png', 'essay.png', 'poster.png', 'signature.png']);
    expect(kept[3]?.blob.type).toBe('image/png');
  });

  it('shows "required" beside each required question, focuses the first, and does not submit', async () => {
    const user = userEvent.setup();
    const { onSubmit, container } = renderFill();
    const title = screen.getByRole('textbox', { name: 'What did you do? (required)' });
    title.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(title)).toBe(formMessages.required);
    const group = (legend: string) => screen.getByRole('group', { name: legend });
    expect(descriptionOf(group('On time every day? (required)'))).toBe(formMessages.required);
    const slider = screen.getByRole('slider', { name: 'How confident do you feel? (required)' });
    expect(descriptionOf(slider)).toBe(`1 is not at all, 10 is very ${formMessages.required}`);
    expect(descriptionOf(group('Staff signature (required)'))).toBe(formMessages.required);
    expect(screen.getAllByText(formMessages.required)).toHaveLength(4);
    // Not required: no message.
    expect(descriptionOf(screen.getByRole('textbox', { name: 'How did it go?' }))).toBe('A few sentences is plenty.');

    expect(await axeViolations(container)).toEqual([]);

    // Fix the first: focus now goes to the next question with an error, in the form's order.
    await user.type(title, 'Cooked dinner');
    expect(title.getAttribute('aria-invalid')).toBeNull();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Yes' })));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the server\'s field errors beside their fields, and the others above the button', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => ({ errors: { 'answers.title': ['That is too vague', 'Second message'], week: 'Check the days', status: ['This objective is completed'] } }));
    const defaults = { title: 'Stuff', on_time: 'yes', confidence: 5, staff_signature: { file_id: fileId(9) } };
    renderFill({ onSubmit, defaultValues: defaults });
    screen.getByRole('textbox', { name: 'What did you do? (required)' }).focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({ ...none, ...defaults, needed_help: false });
    const title = screen.getByRole('textbox', { name: 'What did you do? (required)' });
    await waitFor(() => expect(descriptionOf(title)).toBe('That is too vague'));
    expect(document.activeElement).toBe(title);
    expect(descriptionOf(screen.getByRole('group', { name: 'The week' }))).toBe('Check the days');
    expect(screen.getByRole('alert').textContent).toBe('This objective is completed');
  });

  it('reports answers through onChange as they are typed', async () => {
    const user = userEvent.setup();
    const { onChange } = renderFill();
    await user.type(screen.getByRole('textbox', { name: 'What did you do? (required)' }), 'Hi');
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenNthCalledWith(1, { ...none, needed_help: false, title: 'H' });
    expect(onChange).toHaveBeenLastCalledWith({ ...none, needed_help: false, title: 'Hi' });
    await user.type(screen.getByRole('textbox', { name: 'Colour code' }), '#ABCDEF');
    expect(onChange).toHaveBeenLastCalledWith({ ...none, needed_help: false, title: 'Hi', mood_colour: '#abcdef' });
  });

  it('restores a draft: every kind shows its saved answer, and submitting gives it back', async () => {
    const user = userEvent.setup();
    const { onSubmit, container } = renderFill({ defaultValues: FILLED });
    const value = (el: HTMLElement) => (el as HTMLInputElement).value;
    const checked = (role: 'checkbox' | 'radio', name: string) => (screen.getByRole(role, { name }) as HTMLInputElement).checked;

    expect(value(screen.getByRole('textbox', { name: 'What did you do? (required)' }))).toBe('Made spaghetti bolognese');
    expect(value(screen.getByRole('textbox', { name: 'How did it go?' }))).toBe('Chopped the onions.\nEveryone had seconds.');
    expect(checked('checkbox', 'Needed some help')).toBe(true);
    expect([checked('radio', 'Yes'), checked('radio', 'No')]).toEqual([false, true]);
    expect(['Planning', 'Shopping', 'Cooking'].map((n) => checked('checkbox', n))).toEqual([true, false, true]);
    expect(['Monday', 'Tuesday', 'Wednesday'].map((n) => checked('radio', n))).toEqual([false, true, false]);
    const slider = screen.getByRole('slider', { name: 'How confident do you feel? (required)' });
    expect([value(slider), slider.getAttribute('aria-valuetext')]).toEqual(['7', '7 (from 1 to 10)']);
    expect(['Day, row 1', 'Arrived, row 1', 'Day, row 2', 'Arrived, row 2'].map((n) => value(screen.getByRole('textbox', { name: n })))).toEqual(['Monday', '08:40', 'Tuesday', '']);
    expect(value(screen.getByRole('textbox', { name: 'Colour code' }))).toBe('#3aa655');
    expect(screen.getByText('Green #3aa655')).toBeTruthy();
    expect(screen.getAllByRole('radio', { name: /#/ }).some((r) => (r as HTMLInputElement).checked)).toBe(false);
    expect(['Independence skills', 'Health and wellbeing', 'Form a1b2c3d4'].map((n) => checked('checkbox', n))).toEqual([true, false, true]);
    expect(screen.getByRole('img', { name: 'A photo of it' }).getAttribute('src')).toBe(`/files/${fileId(101)}`);
    expect(screen.getAllByRole('img', { name: /^Work to be proud of/ }).map((img) => img.getAttribute('src'))).toEqual([`/files/${fileId(102)}`, `/files/${fileId(103)}`]);
    expect(screen.getByRole('img', { name: 'Staff signature' }).getAttribute('src')).toBe(`/files/${fileId(104)}`);
    expect(screen.getByRole('button', { name: 'Sign again' })).toBeTruthy();
    expect(screen.getAllByText(formMessages.cannotShow)).toHaveLength(2);

    expect(await axeViolations(container)).toEqual([]);

    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // The unknown row's answer (stars) is not sent: the strict schema would refuse it.
    const { stars: _unknown, ...expected } = FILLED;
    expect(onSubmit).toHaveBeenCalledWith(expected);
  });

  it('a required checkbox must be ticked; an optional one unticked is a plain no', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    const { files } = fakeFiles();
    const fields = [
      { id: 'agree', kind: 'boolean', label: 'I agree', required: true },
      { id: 'extra', kind: 'boolean', label: 'Extra help' },
    ];
    render(<FormFill fields={fields} files={files} onSubmit={onSubmit} submitLabel="Save" />);
    const agree = screen.getByRole('checkbox', { name: 'I agree (required)' });
    agree.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(descriptionOf(agree)).toBe(formMessages.required));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.keyboard(' {Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ agree: true, extra: false }));
  });

  it('has no axe violations when empty', async () => {
    const { container } = renderFill();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('does nothing while disabled', async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderFill({ disabled: true, defaultValues: FILLED });
    for (const control of [...screen.getAllByRole('textbox'), ...screen.getAllByRole('checkbox'), ...screen.getAllByRole('button')]) {
      expect((control as HTMLInputElement).disabled).toBe(true);
    }
    await user.tab();
    expect(document.activeElement).toBe(document.body);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('FormFill files', () => {
  const PHOTO_ONLY = [{ id: 'photo', kind: 'image', label: 'A photo of it' }];
  const FILES_ONLY = [{ id: 'work', kind: 'embedded_files', label: 'Work' }];

  it('says so beside the question when a file cannot be kept, and can be tried again', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    fake.store.mockRejectedValueOnce(new Error('disk full'));
    render(<FormFill fields={PHOTO_ONLY} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    const input = screen.getByLabelText('Choose a photo');
    input.focus();
    await chooseFiles(user, input, [pngFile('a.png')]);
    const group = screen.getByRole('group', { name: 'A photo of it' });
    await waitFor(() => expect(descriptionOf(group)).toBe(formMessages.fileNotSaved));
    await chooseFiles(user, input, [pngFile('a.png')]);
    expect(await screen.findByRole('img', { name: 'A photo of it' })).toBeTruthy();
    expect(descriptionOf(group)).toBe('');
  });

  it('refuses a file that is not a picture for an image question, without keeping it', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    render(<FormFill fields={PHOTO_ONLY} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    const input = screen.getByLabelText('Choose a photo');
    input.focus();
    await chooseFiles(user, input, [new File(['%PDF-1.4'], 'notes.pdf', { type: 'application/pdf' })]);
    expect(descriptionOf(screen.getByRole('group', { name: 'A photo of it' }))).toBe(formMessages.notAnImage);
    expect(fake.store).not.toHaveBeenCalled();
  });

  it('keeps at most the file limit, says why, and Remove takes one out and returns focus to the picker', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    const onSubmit = vi.fn(async () => undefined);
    render(<FormFill fields={FILES_ONLY} files={fake.files} onSubmit={onSubmit} submitLabel="Save" />);
    const input = screen.getByLabelText('Add files');
    input.focus();
    const six = Array.from({ length: formLimits.maxEmbeddedFiles + 1 }, (_, i) => pngFile(`page-${i + 1}.png`));
    await chooseFiles(user, input, six);
    await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(formLimits.maxEmbeddedFiles));
    await waitFor(() => expect(descriptionOf(screen.getByRole('group', { name: 'Work' }))).toBe(formMessages.tooManyFiles(formLimits.maxEmbeddedFiles)));
    expect(fake.store).toHaveBeenCalledTimes(formLimits.maxEmbeddedFiles);

    screen.getByRole('button', { name: 'Remove file 2' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getAllByRole('img')).toHaveLength(formLimits.maxEmbeddedFiles - 1);
    expect(document.activeElement).toBe(input);

    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ work: [1, 3, 4, 5].map((n) => ({ file_id: fileId(n) })) }));
  });

  it('leaves out attachments of a type that is not allowed, and says so', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    render(<FormFill fields={FILES_ONLY} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    const input = screen.getByLabelText('Add files');
    input.focus();
    await chooseFiles(user, input, [pngFile('ok.png'), new File(['MZ'], 'game.exe', { type: 'application/x-msdownload' })]);
    await waitFor(() => expect(descriptionOf(screen.getByRole('group', { name: 'Work' }))).toBe('File type not allowed'));
    expect(fake.store.mock.calls.map(([, name]) => name)).toEqual(['ok.png']);
    expect(screen.getAllByRole('img')).toHaveLength(1);
  });

  it('waits for a file still being kept before it submits', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    let release: (() => void) | undefined;
    fake.store.mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve({ file_id: fileId(7) }))));
    const onSubmit = vi.fn(async () => undefined);
    render(<FormFill fields={PHOTO_ONLY} files={fake.files} onSubmit={onSubmit} submitLabel="Save" />);
    const input = screen.getByLabelText('Choose a photo');
    input.focus();
    await chooseFiles(user, input, [pngFile('late.png')]);
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(release).toBeDefined());
    expect(onSubmit).not.toHaveBeenCalled();
    release?.();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ photo: { file_id: fileId(7) } }));
  });
});

describe('FormFill signature', () => {
  const SIGN = [{ id: 'sig', kind: 'signature', label: 'Sign here', required: true }];

  /** Reads a kept PNG back: its size and how many pixels are ink. */
  async function inkOf(blob: Blob) {
    // jsdom's Blob has no arrayBuffer(); its FileReader reads it.
    const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(blob);
    });
    const png = PNG.sync.read(Buffer.from(bytes));
    let ink = 0;
    for (let i = 0; i < png.data.length; i += 4) if ((png.data[i] ?? 255) < 128) ink += 1;
    return { width: png.width, height: png.height, ink };
  }

  async function typeName(user: UserEvent, name: string) {
    screen.getByRole('button', { name: 'Type your name instead' }).focus();
    await user.keyboard('{Enter}');
    await user.keyboard(`${name}{Enter}`);
    return screen.findByRole('img', { name: 'Signature: Sign here' });
  }

  it('without a 2D context, keeps the typed name as a generated PNG in block letters', async () => {
    const user = userEvent.setup();
    const fake = fakeFiles();
    render(<FormFill fields={SIGN} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    await typeName(user, 'Jo');
    const short = await inkOf(fake.kept[0]!.blob);
    expect(fake.kept[0]!.name).toBe('signature.png');
    expect(short.ink).toBeGreaterThan(0);

    // A longer name makes a wider picture with more ink: the letters are really in it.
    screen.getByRole('button', { name: 'Sign again' }).focus();
    await user.keyboard('{Enter}');
    const name = screen.getByRole('textbox', { name: 'Type your full name' });
    expect(document.activeElement).toBe(name);
    await user.clear(name);
    await user.keyboard('Jamie Smith{Enter}');
    await screen.findByRole('img', { name: 'Signature: Sign here' });
    const long = await inkOf(fake.kept[1]!.blob);
    expect(long.width).toBeGreaterThan(short.width);
    expect(long.ink).toBeGreaterThan(short.ink);
  });

  it('still works when getContext throws', async () => {
    vi.mocked(HTMLCanvasElement.prototype.getContext).mockImplementation(() => {
      throw new Error('canvas is switched off');
    });
    const user = userEvent.setup();
    const fake = fakeFiles();
    render(<FormFill fields={SIGN} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    await typeName(user, 'Jo');
    expect((await inkOf(fake.kept[0]!.blob)).ink).toBeGreaterThan(0);
  });

  it('with a canvas, writes the typed name in a handwriting font and keeps the canvas PNG', async () => {
    const painted: { text?: string; font?: string } = {};
    const ctx = new Proxy({} as Record<string | symbol, unknown>, {
      get: (target, key) =>
        key in target ? target[key] : key === 'measureText' ? () => ({ width: 100 }) : key === 'fillText' ? (text: string) => Object.assign(painted, { text, font: target.font }) : () => undefined,
    });
    vi.mocked(HTMLCanvasElement.prototype.getContext).mockReturnValue(ctx as unknown as CanvasRenderingContext2D);
    const canvasPng = new Blob(['from the canvas'], { type: 'image/png' });
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => callback(canvasPng));
    const user = userEvent.setup();
    const fake = fakeFiles();
    render(<FormFill fields={SIGN} files={fake.files} onSubmit={vi.fn()} submitLabel="Save" />);
    await typeName(user, 'Jamie Smith');
    expect(painted.text).toBe('Jamie Smith');
    expect(painted.font).toMatch(/cursive$/);
    expect(fake.kept[0]!.blob).toBe(canvasPng);
  });

  it('draws with a pointer and keeps the strokes as a PNG; Clear empties the pad', async () => {
    // jsdom has no PointerEvent: without one, fireEvent's pointer events carry no coordinates.
    class FakePointerEvent extends MouseEvent {
      readonly pointerId: number;
      readonly pointerType: string;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
        this.pointerType = init.pointerType ?? 'mouse';
      }
    }
    vi.stubGlobal('PointerEvent', FakePointerEvent);
    const user = userEvent.setup();
    const fake = fakeFiles();
    const onSubmit = vi.fn(async () => undefined);
    render(<FormFill fields={SIGN} files={fake.files} onSubmit={onSubmit} submitLabel="Save" />);
    const pad = screen.getByRole('img', { name: /Signature pad/ });
    const save = screen.getByRole('button', { name: 'Save signature' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const stroke = (points: [number, number][]) => {
      const [first, ...rest] = points;
      fireEvent.pointerDown(pad, { pointerId: 1, button: 0, clientX: first![0], clientY: first![1] });
      for (const [x, y] of rest) fireEvent.pointerMove(pad, { pointerId: 1, clientX: x, clientY: y });
      fireEvent.pointerUp(pad, { pointerId: 1 });
    };
    stroke([[10, 10], [200, 120]]);
    expect(pad.dataset.strokes).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(pad.dataset.strokes).toBe('0');
    stroke([[20, 150], [300, 40], [500, 160]]);
    await user.click(save);
    await screen.findByRole('img', { name: 'Signature: Sign here' });
    expect((await inkOf(fake.kept[0]!.blob)).ink).toBeGreaterThan(50);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ sig: { file_id: fileId(1) } }));
  });
});

describe('malformed definitions', () => {
  const throwing = Object.defineProperty({ id: 'boom', kind: 'text' }, 'label', {
    enumerable: true,
    get() {
      throw new Error('a getter that throws');
    },
  });
  const definitions: [string, unknown][] = [
    ['null', null],
    ['a string', 'fields'],
    ['an object', { id: 'x' }],
    ['entries that are not objects', [null, 42, 'text', [], true]],
    ['an empty object', [{}]],
    ['a text field without a label', [{ id: 'a', kind: 'text' }]],
    ['a slider without min and max', [{ id: 'a', kind: 'slider', label: 'How much?' }]],
    ['a table without columns', [{ id: 'a', kind: 'table', label: 'Table', columns: [] }]],
    ['options without any option', [{ id: 'a', kind: 'multi_option', label: 'Pick', options: [] }]],
    ['related forms that are not ids', [{ id: 'a', kind: 'related_forms', label: 'Related', related_form_ids: ['not-a-uuid'] }]],
    ['an unknown heading level', [{ id: 'a', kind: 'heading', label: 'H', level: 'chapter' }]],
    ['a getter that throws', [throwing]],
  ];

  it.each(definitions)('%s: reading, viewing and filling never throw', (_name, fields) => {
    const { files } = fakeFiles();
    expect(() => readDefinition(fields)).not.toThrow();
    expect(readDefinition(fields).answerable).toEqual([]);
    const junk = { a: { nested: [1, 2] }, boom: 'x' };
    const view = render(<FormView fields={fields as unknown[]} answers={junk} files={files} />);
    expect(view.container.querySelectorAll('.form-unknown').length).toBeGreaterThan(0);
    view.unmount();
    render(<FormFill fields={fields as unknown[]} defaultValues={junk} files={files} onSubmit={vi.fn()} submitLabel="Save" />);
    expect(screen.getAllByText(formMessages.cannotShow).length).toBeGreaterThan(0);
  });

  it('a second field with the same id cannot be shown; the first still works', () => {
    const { rows, answerable } = readDefinition([
      { id: 'a', kind: 'text', label: 'First' },
      { id: 'a', kind: 'yes_no', label: 'Second' },
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['field', 'unknown']);
    expect(answerable.map((f) => f.label)).toEqual(['First']);
  });

  it('rows that cannot be shown, and answers that do not fit, never block the submit', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    const { files } = fakeFiles();
    const fields = [
      { id: 'stars', kind: 'rating', label: 'Stars', required: true },
      { id: 'note', kind: 'text', label: 'Note' },
      { id: 'pick', kind: 'multi_option', label: 'Pick', options: [{ value: 'a', label: 'A' }] },
      { id: 'level', kind: 'slider', label: 'Level', min: 0, max: 10 },
    ];
    render(<FormFill fields={fields} defaultValues={{ stars: 5, note: 12, pick: ['gone', 'a'], level: 'high' }} files={files} onSubmit={onSubmit} submitLabel="Save" />);
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ note: null, pick: ['a'], level: null }));
  });
});
