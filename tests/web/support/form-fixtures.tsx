import { vi } from 'vitest';
import type { Answers, FileAnswer, FormFieldInput } from '@/contract/forms';
import type { FormFilePreviewProps, FormFiles, RelatedFormOption } from '@/components/form-renderer/types';

/**
 * A definition with every SPEC §3 kind (after server/seed/demo-objectives.ts), plus a row of an
 * unknown kind and a malformed row (no label, an id the contract refuses).
 */
export const RELATED = {
  skills: '0192f0a0-0000-7000-8000-000000000001',
  health: '0192f0a0-0000-7000-8000-000000000002',
  gone: 'a1b2c3d4-0000-7000-8000-000000000003',
};

export const RELATED_FORMS: RelatedFormOption[] = [
  { id: RELATED.skills, name: 'Independence skills' },
  { id: RELATED.health, name: 'Health and wellbeing' },
];

export const EVERY_KIND: (FormFieldInput | Record<string, unknown>)[] = [
  { id: 'about', kind: 'heading', label: 'About the activity', level: 'section' },
  { id: 'title', kind: 'text', label: 'What did you do?', required: true },
  { id: 'how_it_went', kind: 'large_text', label: 'How did it go?', help_text: 'A few sentences is plenty.' },
  { id: 'needed_help', kind: 'boolean', label: 'Needed some help' },
  { id: 'on_time', kind: 'yes_no', label: 'On time every day?', required: true },
  {
    id: 'skills',
    kind: 'multi_option',
    label: 'Skills used',
    options: [
      { value: 'planning', label: 'Planning' },
      { value: 'shopping', label: 'Shopping' },
      { value: 'cooking', label: 'Cooking' },
    ],
  },
  {
    id: 'best_day',
    kind: 'multi_option',
    label: 'Best day',
    multiple: false,
    options: [
      { value: 'mon', label: 'Monday' },
      { value: 'tue', label: 'Tuesday' },
      { value: 'wed', label: 'Wednesday' },
    ],
  },
  { id: 'confidence', kind: 'slider', label: 'How confident do you feel?', help_text: '1 is not at all, 10 is very', min: 1, max: 10, step: 1, required: true },
  { id: 'attendance', kind: 'heading', label: 'Attendance', level: 'group' },
  { id: 'week', kind: 'table', label: 'The week', columns: [{ id: 'day', label: 'Day' }, { id: 'arrived', label: 'Arrived' }] },
  { id: 'mood_colour', kind: 'colour', label: 'Colour of the week', help_text: 'Pick a colour that sums up how the week felt.' },
  { id: 'related', kind: 'related_forms', label: 'Related objectives', related_form_ids: [RELATED.skills, RELATED.health, RELATED.gone] },
  { id: 'photo', kind: 'image', label: 'A photo of it' },
  { id: 'work', kind: 'embedded_files', label: 'Work to be proud of' },
  { id: 'staff_signature', kind: 'signature', label: 'Staff signature', required: true },
  { id: 'stars', kind: 'rating', label: 'How many stars?' },
  { id: 'Not An Id!', kind: 'text' },
];

export const ANSWERABLE_IDS = ['title', 'how_it_went', 'needed_help', 'on_time', 'skills', 'best_day', 'confidence', 'week', 'mood_colour', 'related', 'photo', 'work', 'staff_signature'];

export const fileId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A filled form: one answer per kind, and an answer for the unknown row that must be ignored. */
export const FILLED: Answers = {
  title: 'Made spaghetti bolognese',
  how_it_went: 'Chopped the onions.\nEveryone had seconds.',
  needed_help: true,
  on_time: 'no',
  skills: ['planning', 'cooking'],
  best_day: ['tue'],
  confidence: 7,
  week: [{ day: 'Monday', arrived: '08:40' }, { day: 'Tuesday' }],
  mood_colour: '#3aa655',
  related: [RELATED.skills, RELATED.gone],
  photo: { file_id: fileId(101) },
  work: [{ file_id: fileId(102) }, { file_id: fileId(103) }],
  staff_signature: { file_id: fileId(104) },
  stars: 5,
};

/** The caller's side, as a test double: files kept in memory, shown as plain <img>. */
export function fakeFiles() {
  const kept: { blob: Blob; name: string; answer: FileAnswer }[] = [];
  let next = 1;
  const store = vi.fn(async (blob: Blob, name: string): Promise<FileAnswer> => {
    const answer = { file_id: fileId(next++) };
    kept.push({ blob, name, answer });
    return answer;
  });
  function Preview({ file, alt }: FormFilePreviewProps) {
    return <img src={`/files/${file.file_id}`} alt={alt} width={64} height={64} />;
  }
  const files: FormFiles = { store, Preview };
  return { files, store, kept };
}

/** A PNG File the person picks. */
export const pngFile = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, { type: 'image/png' });
