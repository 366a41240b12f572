import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { FormFieldInput } from '../../src/contract/forms';
import type { Database, DocumentBlobRole } from '../db/schema';
import { saveForm } from '../domain/tasks/forms';
import type { BlobStore } from '../lib/blob-store';
import { uuidv7 } from '../lib/uuidv7';
import { textPdf } from './text-pdf';

/**
 * Demo documents (issue 11). Willow House (Jamie and Riley's home) has the "House rules" PDF (made
 * here by text-pdf.ts) and the book "Welcome to Willow House" (three chapters, pictures drawn as SVG
 * and turned into PNG and WebP by sharp; version 2, so devices show it as updated); Jamie has the
 * gallery "Trip to the seaside" (three pictures with captions and a short video), the short video
 * "Waves at Whitby" and the form "My views for my review meeting", which uses every field kind.
 * Sam has a plain-text note of his own and Cedar Lodge a fire-safety PDF. The video is the one
 * file kept in the repository: server/seed/assets/seaside-waves.webm (4 s of synthetic waves,
 * VP9, 320×180, under 6 KB), so nothing here needs a video encoder.
 * Idempotent: each document has a seed_key and is written only when missing; the review form is
 * versioned only when its definition changes. Without a file store nothing is written.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export const REVIEW_FORM_NAME = 'My views for my review meeting';

const reviewForm = (relatedIds: string[]): FormFieldInput[] => [
  { id: 'about_me', kind: 'heading', label: 'About me', level: 'section', help_text: 'Your review meeting is about you. Say as much or as little as you like.' },
  { id: 'going_well', kind: 'large_text', label: 'What is going well for you at the moment?', required: true },
  { id: 'worries', kind: 'text', label: 'Is anything worrying you?' },
  { id: 'happy_here', kind: 'yes_no', label: 'Are you happy living here?', required: true },
  { id: 'happiness', kind: 'slider', label: 'How happy do you feel, from 0 to 10?', min: 0, max: 10, step: 1 },
  { id: 'mood_colour', kind: 'colour', label: 'Pick a colour for how you feel' },
  { id: 'my_week', kind: 'heading', label: 'My week', level: 'group' },
  { id: 'week', kind: 'table', label: 'The best and the hardest part of your week', columns: [{ id: 'day', label: 'Day' }, { id: 'best', label: 'Best bit' }, { id: 'hardest', label: 'Hardest bit' }] },
  { id: 'talk_about', kind: 'multi_option', label: 'What would you like to talk about?', options: [
    { value: 'school', label: 'School' }, { value: 'family', label: 'Family time' }, { value: 'friends', label: 'Friends' },
    { value: 'health', label: 'Health' }, { value: 'home', label: 'Living here' }, { value: 'future', label: 'The future' },
  ] },
  { id: 'objectives', kind: 'related_forms', label: 'Objectives you want to mention', related_form_ids: relatedIds },
  { id: 'photo', kind: 'image', label: 'A photo or picture that shows something you are proud of' },
  { id: 'extra_files', kind: 'embedded_files', label: 'Anything else you want to share (pictures or PDFs)' },
  { id: 'attend', kind: 'boolean', label: 'I would like to come to the meeting myself' },
  { id: 'signature', kind: 'signature', label: 'Your signature', required: true },
];

const HOUSE_RULES = textPdf('Willow House: house rules', [
  { heading: 'Willow House: house rules', lines: [
    'These are the rules we agreed together at the house meeting.',
    'They help everyone feel safe, listened to and at home.',
    '',
    '1. Be kind to each other, and to the staff.',
    '2. Knock before going into someone else\'s room.',
    '3. Tell a member of staff where you are going when you go out.',
    '4. Be back by the time agreed with your key worker.',
    '5. Phones and games go on the charging shelf at bedtime.',
    '6. Help with one household job each day (the rota is on the fridge).',
    '7. Visitors are welcome: please ask staff the day before.',
  ] },
  { heading: 'Meal times and quiet time', lines: [
    'Breakfast: 7:30 to 9:00 on school days, until 10:30 at weekends.',
    'Tea: 5:30 every evening. Tell staff by lunchtime if you will be out.',
    'Quiet time starts at 9:30 on school nights and 10:30 at weekends.',
    '',
    'If you think a rule is unfair, you can say so: use Voice in Hearth,',
    'talk to your key worker, or bring it to the next house meeting.',
  ] },
  { heading: 'If you need help', lines: [
    'Staff are here day and night. Knock on the office door at any time.',
    'If you feel unsafe, tell an adult you trust straight away.',
    'Childline: 0800 1111 (free, and it will not show on a phone bill).',
  ] },
]);

const FIRE_SAFETY = textPdf('Cedar Lodge: fire safety', [
  { heading: 'Fire safety at Cedar Lodge', lines: [
    'If you hear the alarm: leave by the nearest door, do not stop for belongings.',
    'Meet at the assembly point by the front gate.',
    'Fire drills happen once a month, so you know what to do.',
  ] },
]);

/** A picture drawn in SVG, rendered by sharp (librsvg) to PNG or WebP. */
async function picture(svg: string, format: 'png' | 'webp'): Promise<Buffer> {
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png({ palette: true, colours: 48 }).toBuffer() : image.webp({ quality: 70 }).toBuffer();
}

const frame = (body: string, sky = '#bfe6ff') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320" viewBox="0 0 480 320"><rect width="480" height="320" fill="${sky}"/>${body}</svg>`;

const SVG = {
  house: frame(`<rect y="250" width="480" height="70" fill="#7cc36b"/><circle cx="400" cy="60" r="32" fill="#ffd84d"/>
    <rect x="130" y="140" width="220" height="130" fill="#f4e1c1" stroke="#8a5a3c" stroke-width="4"/>
    <polygon points="115,145 240,60 365,145" fill="#b5523b"/><rect x="220" y="200" width="40" height="70" fill="#6b3f2a"/>
    <rect x="150" y="165" width="45" height="40" fill="#9fd3ff" stroke="#fff" stroke-width="4"/><rect x="285" y="165" width="45" height="40" fill="#9fd3ff" stroke="#fff" stroke-width="4"/>
    <path d="M60 250 q10 -60 20 0 M70 200 a18 18 0 1 1 0.1 0" fill="#3f8f3a"/>`),
  room: frame(`<rect width="480" height="320" fill="#f6efe6"/><rect y="250" width="480" height="70" fill="#c9a27e"/>
    <rect x="60" y="180" width="200" height="70" rx="10" fill="#6a8fd8"/><rect x="60" y="160" width="60" height="30" rx="8" fill="#fff"/>
    <rect x="320" y="60" width="100" height="80" fill="#9fd3ff" stroke="#8a5a3c" stroke-width="6"/><rect x="330" y="170" width="90" height="80" fill="#b07a4f"/>`, '#f6efe6'),
  kitchen: frame(`<rect width="480" height="320" fill="#fff6e0"/><ellipse cx="240" cy="230" rx="190" ry="50" fill="#c98b55"/>
    <circle cx="160" cy="215" r="28" fill="#fff"/><circle cx="240" cy="225" r="28" fill="#fff"/><circle cx="320" cy="215" r="28" fill="#fff"/>
    <circle cx="160" cy="215" r="14" fill="#e0603a"/><circle cx="240" cy="225" r="14" fill="#7cc36b"/><circle cx="320" cy="215" r="14" fill="#f2c14e"/>`, '#fff6e0'),
  people: frame(`<rect y="250" width="480" height="70" fill="#7cc36b"/>${[90, 190, 290, 390].map((x, i) => `<circle cx="${x}" cy="150" r="26" fill="${['#f1c27d', '#8d5524', '#e0ac69', '#c68642'][i]}"/><rect x="${x - 28}" y="180" width="56" height="75" rx="20" fill="${['#e4572e', '#17bebb', '#ffc914', '#76b041'][i]}"/>`).join('')}`),
  beach: frame(`<rect y="170" width="480" height="60" fill="#2e86de"/><rect y="220" width="480" height="100" fill="#f5d491"/><circle cx="90" cy="70" r="36" fill="#ffd84d"/>
    <path d="M0 180 q30 -12 60 0 t60 0 t60 0 t60 0 t60 0 t60 0 t60 0 t60 0" fill="none" stroke="#fff" stroke-width="4"/>`),
  sandcastle: frame(`<rect y="200" width="480" height="120" fill="#f5d491"/><rect x="170" y="150" width="140" height="70" fill="#e2b86b"/>
    <rect x="150" y="120" width="40" height="100" fill="#d9aa55"/><rect x="290" y="120" width="40" height="100" fill="#d9aa55"/><rect x="220" y="100" width="40" height="60" fill="#d9aa55"/>
    <line x1="240" y1="100" x2="240" y2="55" stroke="#555" stroke-width="3"/><polygon points="240,55 275,65 240,75" fill="#e4572e"/>`),
  icecream: frame(`<polygon points="200,170 280,170 240,300" fill="#e2b86b"/><circle cx="215" cy="150" r="35" fill="#ffb3c6"/><circle cx="265" cy="150" r="35" fill="#fff3b0"/><circle cx="240" cy="115" r="35" fill="#8ed081"/>`, '#d6f5ff'),
};

const VIDEO = () => readFileSync(new URL('./assets/seaside-waves.webm', import.meta.url));

interface SeedBlob {
  role: Exclude<DocumentBlobRole, 'answer'>;
  name: string;
  mime: string;
  data: Buffer;
  caption?: string;
  pageKey?: string;
}

interface SeedDocument {
  key: string;
  audience: { resident: string } | { home: string };
  kind: 'file' | 'book' | 'gallery' | 'form';
  title: string;
  description: string;
  category: string;
  daysAgo: number;
  version?: number;
  blobs: () => Promise<SeedBlob[]>;
  chapters?: { title: string; pages: { key: string; title: string; html: string }[] }[];
  form?: string;
}

const DOCUMENTS: SeedDocument[] = [
  {
    key: 'house-rules', audience: { home: 'Willow House' }, kind: 'file', title: 'House rules', category: 'House information', daysAgo: 30,
    description: 'The rules we agreed at the house meeting, meal times and who to ask for help.',
    blobs: async () => [{ role: 'file', name: 'willow-house-rules.pdf', mime: 'application/pdf', data: HOUSE_RULES }],
  },
  {
    key: 'welcome-book', audience: { home: 'Willow House' }, kind: 'book', title: 'Welcome to Willow House', category: 'House information', daysAgo: 25, version: 2,
    description: 'Everything you need to know about living at Willow House, with pictures.',
    chapters: [
      { title: 'Your new home', pages: [
        { key: 'hello', title: 'Hello!', html: '<h2>Welcome, we are glad you are here</h2><p>Willow House is a home for <strong>four young people</strong> and the staff who look after them, day and night.</p><p>This book tells you how things work here. You can read it as often as you like.</p>' },
        { key: 'room', title: 'Your room', html: '<p>Your room is <em>yours</em>. You can choose posters, a duvet cover and where things go.</p><ul><li>Staff knock and wait before coming in.</li><li>You get a key for your room.</li><li>Tell us if something needs fixing.</li></ul>' },
      ] },
      { title: 'Everyday life', pages: [
        { key: 'meals', title: 'Meals', html: '<p>We eat together at <strong>5:30</strong> every evening. Everyone helps plan the menu at the Sunday meeting.</p><p>Hungry in between? There is always fruit, toast and cereal.</p>' },
        { key: 'people', title: 'Who is who', html: '<p>Your <strong>key worker</strong> is the member of staff who looks out for you in particular. Ask them anything.</p><table><thead><tr><th scope="col">Name</th><th scope="col">What they do</th></tr></thead><tbody><tr><td>Ali</td><td>Key worker</td></tr><tr><td>Priya</td><td>Registered manager</td></tr></tbody></table>' },
      ] },
      { title: 'Having your say', pages: [
        { key: 'voice', title: 'Your voice matters', html: '<p>You can tell us what you think at any time: use <strong>Voice</strong> in Hearth, talk to staff or come to the house meeting.</p><blockquote>If you feel unsafe, tell an adult you trust straight away.</blockquote><p>Childline is free on 0800 1111, or visit <a href="https://www.childline.org.uk/">childline.org.uk</a>.</p>' },
      ] },
    ],
    blobs: async () => [
      { role: 'page_image', pageKey: 'hello', name: 'willow-house.png', mime: 'image/png', data: await picture(SVG.house, 'png'), caption: 'Willow House: a red-brick house with a green garden and a big tree' },
      { role: 'page_image', pageKey: 'room', name: 'your-room.webp', mime: 'image/webp', data: await picture(SVG.room, 'webp'), caption: 'A bedroom with a blue bed, a window and a chest of drawers' },
      { role: 'page_image', pageKey: 'meals', name: 'tea-time.webp', mime: 'image/webp', data: await picture(SVG.kitchen, 'webp'), caption: 'The kitchen table laid for tea with three plates' },
      { role: 'page_image', pageKey: 'people', name: 'everyone.png', mime: 'image/png', data: await picture(SVG.people, 'png'), caption: 'Four smiling people standing together in the garden' },
    ],
  },
  {
    key: 'seaside-gallery', audience: { resident: 'jamie' }, kind: 'gallery', title: 'Trip to the seaside', category: 'Trips', daysAgo: 9,
    description: 'Photos and a video from our day out at Whitby.',
    blobs: async () => [
      { role: 'gallery_item', name: 'beach.webp', mime: 'image/webp', data: await picture(SVG.beach, 'webp'), caption: 'The beach at Whitby on a sunny morning' },
      { role: 'gallery_item', name: 'sandcastle.png', mime: 'image/png', data: await picture(SVG.sandcastle, 'png'), caption: 'Jamie’s sandcastle, with a flag on the top tower' },
      { role: 'gallery_item', name: 'waves.webm', mime: 'video/webm', data: VIDEO(), caption: 'The waves coming in (4 seconds, no sound)' },
      { role: 'gallery_item', name: 'ice-cream.webp', mime: 'image/webp', data: await picture(SVG.icecream, 'webp'), caption: 'Three scoops: strawberry, vanilla and mint' },
    ],
  },
  {
    key: 'waves-video', audience: { resident: 'jamie' }, kind: 'file', title: 'Waves at Whitby', category: 'Trips', daysAgo: 8,
    description: 'A short video of the sea from the pier (no sound).',
    blobs: async () => [{ role: 'file', name: 'waves-at-whitby.webm', mime: 'video/webm', data: VIDEO() }],
  },
  {
    key: 'review-form', audience: { resident: 'jamie' }, kind: 'form', title: REVIEW_FORM_NAME, category: 'My review', daysAgo: 3, form: REVIEW_FORM_NAME,
    description: 'Fill this in before your review meeting so your views are heard. Only you and the staff of your home see it.',
    blobs: async () => [],
  },
  {
    key: 'sam-wifi', audience: { resident: 'sam' }, kind: 'file', title: 'Wi-Fi and quiet hours', category: 'House information', daysAgo: 5,
    description: 'The games-room Wi-Fi and when it is switched off.',
    blobs: async () => [{ role: 'file', name: 'wifi-and-quiet-hours.txt', mime: 'text/plain', data: Buffer.from('Wi-Fi and quiet hours at Cedar Lodge\n\nNetwork: CedarLodge-Guest\nThe games-room Wi-Fi goes off at 10pm on school nights and 11pm at weekends.\nAsk Chris if you need it for homework later than that.\n', 'utf8') }],
  },
  {
    key: 'cedar-fire-safety', audience: { home: 'Cedar Lodge' }, kind: 'file', title: 'Fire safety', category: 'House information', daysAgo: 40,
    description: 'What to do when the fire alarm goes off.',
    blobs: async () => [{ role: 'file', name: 'fire-safety.pdf', mime: 'application/pdf', data: FIRE_SAFETY }],
  },
];

export async function seedDemoDocuments(db: Kysely<Database>, tenantId: string, files?: BlobStore): Promise<void> {
  if (!files) return;
  const tenant = await db.selectFrom('tenants').select('slug').where('id', '=', tenantId).executeTakeFirstOrThrow();
  if (tenant.slug !== 'demo') return;

  const objectiveForms = await db.selectFrom('forms').select('id').where('tenant_id', '=', tenantId).where('name', '!=', REVIEW_FORM_NAME).where('deleted_at', 'is', null).orderBy('name').execute();
  const reviewFormId = await saveForm(db, tenantId, REVIEW_FORM_NAME, 'Your views, in your words, for your review meeting.', reviewForm(objectiveForms.map((f) => f.id)));

  const homes = new Map((await db.selectFrom('homes').select(['id', 'name']).where('tenant_id', '=', tenantId).execute()).map((h) => [h.name, h.id]));
  const residents = new Map(
    (await db.selectFrom('residents').innerJoin('users', 'users.id', 'residents.user_id').select(['residents.id', 'users.username']).where('residents.tenant_id', '=', tenantId).execute()).map((r) => [r.username, r.id]),
  );
  const staff = await db.selectFrom('users').select('id').where('tenant_id', '=', tenantId).where('username', '=', 'carer.ali').executeTakeFirstOrThrow();
  const chris = await db.selectFrom('users').select('id').where('tenant_id', '=', tenantId).where('username', '=', 'carer.chris').executeTakeFirstOrThrow();

  for (const seed of DOCUMENTS) {
    const seedKey = `demo:document:${seed.key}`;
    const exists = await db.selectFrom('documents').select('id').where('tenant_id', '=', tenantId).where('seed_key', '=', seedKey).executeTakeFirst();
    if (exists) continue;
    const residentId = 'resident' in seed.audience ? residents.get(seed.audience.resident) : undefined;
    const homeId = 'home' in seed.audience ? homes.get(seed.audience.home) : undefined;
    if (!residentId && !homeId) continue;
    const version = seed.form ? await db.selectFrom('form_versions').select('id').where('form_id', '=', reviewFormId).orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow() : null;
    const blobs = await seed.blobs();
    const keys: string[] = [];
    for (const blob of blobs) keys.push(await files.write(tenantId, blob.data));
    const createdAt = new Date(Date.now() - seed.daysAgo * DAY_MS);
    const changedAt = seed.version && seed.version > 1 ? new Date(createdAt.getTime() + 2 * DAY_MS) : createdAt;
    const creator = seed.key.startsWith('sam') || seed.key.startsWith('cedar') ? chris.id : staff.id;
    try {
      await db.transaction().execute(async (tx) => {
        const doc = await tx
          .insertInto('documents')
          .values({
            tenant_id: tenantId, resident_id: residentId ?? null, home_id: residentId ? null : homeId!, kind: seed.kind, title: seed.title,
            description: seed.description, category: seed.category, form_id: seed.form ? reviewFormId : null, form_version_id: version?.id ?? null,
            creator_id: creator, version: seed.version ?? 1, created_at: createdAt, updated_at: changedAt, content_updated_at: changedAt, seed_key: seedKey,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const pageIds = new Map<string, string>();
        for (const [c, chapter] of (seed.chapters ?? []).entries()) {
          const chapterId = uuidv7();
          await tx.insertInto('document_chapters').values({ id: chapterId, tenant_id: tenantId, document_id: doc.id, position: c, title: chapter.title }).execute();
          for (const [p, page] of chapter.pages.entries()) {
            const pageId = uuidv7();
            pageIds.set(page.key, pageId);
            await tx.insertInto('document_pages').values({ id: pageId, tenant_id: tenantId, document_id: doc.id, chapter_id: chapterId, position: p, title: page.title, html: page.html }).execute();
          }
        }
        const positions = new Map<string, number>();
        for (const [i, blob] of blobs.entries()) {
          const group = blob.pageKey ?? blob.role;
          const position = positions.get(group) ?? 0;
          positions.set(group, position + 1);
          await tx
            .insertInto('document_blobs')
            .values({
              tenant_id: tenantId, document_id: doc.id, role: blob.role, page_id: blob.pageKey ? pageIds.get(blob.pageKey)! : null, position, caption: blob.caption ?? null,
              name: blob.name, mime: blob.mime, size: blob.data.length, sha256: createHash('sha256').update(blob.data).digest('hex'), storage_key: keys[i]!,
              created_at: createdAt,
            })
            .execute();
        }
      });
    } catch (error) {
      for (const key of keys) await files.remove(tenantId, key);
      // Another process seeding at the same time wrote it first.
      if ((error as { code?: unknown }).code === '23505') continue;
      throw error;
    }
  }
}
