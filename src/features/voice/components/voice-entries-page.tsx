import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ClosedBadge } from '@/entries/components/closed-badge';
import { FailedEntryActions } from '@/entries/components/failed-entry-actions';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadMore } from '@/components/load-more';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { RelativeTime } from '@/components/relative-time';
import { useKeptPage } from '@/data/hooks/use-kept-page';
import { useVoiceCategories, useVoiceEntries } from '@/entries/hooks/use-entries';
import type { VoiceCategoryDoc, VoiceDoc } from '@/data/replica/types';
import './voice.css';

const EXCERPT_LENGTH = 140;

function excerptOf(entry: VoiceDoc): string {
  const text = (entry.description ?? '').replace(/\s+/g, ' ').trim();
  if (text) return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
  if (entry.canvas) return 'A drawing';
  if (entry.reaction) return `Reaction ${entry.reaction}`;
  return 'Attachments';
}

/** Where the message is; a closed one says "Closed" instead of "Sent" (ClosedBadge, as on journal cards). */
function StateBadge({ entry }: { entry: VoiceDoc }) {
  if (entry.sync_state === 'pending') return <span className="badge">Waiting to send</span>;
  if (entry.sync_state === 'failed') return <span className="badge badge--failed">Not sent</span>;
  if (entry.locked_at) return null;
  return <span className="badge">Sent</span>;
}

interface Group {
  readonly id: string;
  readonly name: string;
  readonly entries: VoiceDoc[];
}

/** Entries grouped by category (in the categories' order), newest first inside each group. */
export function groupByCategory(entries: readonly VoiceDoc[], categories: readonly VoiceCategoryDoc[]): Group[] {
  const groups = new Map<string, Group>(categories.map((c) => [c.id, { id: c.id, name: c.name, entries: [] }]));
  const other: Group = { id: 'other', name: 'Other', entries: [] };
  for (const entry of entries) (groups.get(entry.category_id) ?? other).entries.push(entry);
  const byNewest = (a: VoiceDoc, b: VoiceDoc) => (b.sort_key || b.created_at).localeCompare(a.sort_key || a.created_at);
  return [...groups.values(), other].filter((g) => g.entries.length > 0).map((g) => ({ ...g, entries: [...g.entries].sort(byNewest) }));
}

/** My messages shows the newest 20, then 20 more at a time (a young person may send hundreds over the years). */
export const VOICE_PAGE_SIZE = 20;

/** My messages: what was sent with Voice, newest first, by category, a page at a time. */
export function VoiceEntriesPage() {
  const [limit, setLimit] = useState(VOICE_PAGE_SIZE);
  const { page, loading: entriesLoading, waiting } = useKeptPage(useVoiceEntries(limit));
  const categories = useVoiceCategories();
  // The messages wait for their categories too: shown without them, all went under "Other" and
  // then moved to their groups (Lighthouse: a layout shift of 0.85 on a first visit).
  const loading = entriesLoading || categories.loading;
  const groups = loading ? [] : groupByCategory(page.items, categories.data);
  return (
    <div className="page page--prose">
      <PageHeading>My messages</PageHeading>
      <HeldRegion name="voice.entries" loading={loading}>
        {loading ? <LoadingText /> : null}
        {!loading && groups.length === 0 ? (
          <EmptyState
            title="No Voice messages yet."
            actions={
              <Link to="/voice" className="button button--primary">
                Back to Voice
              </Link>
            }
          >
            Things you send with Voice will be listed here, grouped by category.
          </EmptyState>
        ) : null}
        {groups.map((group) => (
          <section key={group.id} className="section" aria-labelledby={`voice-group-${group.id}`}>
            <h2 id={`voice-group-${group.id}`} className="section-title">
              {group.name}
            </h2>
            <ul className="voice-list">
              {group.entries.map((entry) => (
                <li key={entry.id} className="card" id={`voice-entry-${entry.id}`} tabIndex={-1}>
                  <p className="voice-item__excerpt">{excerptOf(entry)}</p>
                  <div className="voice-item__meta">
                    <RelativeTime iso={entry.created_at} className="small-print" />
                    <StateBadge entry={entry} />
                    {entry.locked_at ? <ClosedBadge /> : null}
                    <Link to={`/voice/comments/${entry.id}`}>
                      {entry.comments_count === 1 ? '1 comment' : `${entry.comments_count} comments`}
                      <span className="visually-hidden"> on this message</span>
                    </Link>
                    {entry.locked_at ? null : (
                      <Link to={`/voice/edit/${entry.id}`}>
                        Edit<span className="visually-hidden"> this message</span>
                      </Link>
                    )}
                  </div>
                  {entry.sync_state === 'failed' ? <FailedEntryActions kind="voice" entry={entry} /> : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
        <LoadMore
          items={page.items}
          hasMore={!loading && page.hasMore}
          waiting={waiting}
          onMore={() => setLimit(page.items.length + VOICE_PAGE_SIZE)}
          idPrefix="voice-entry-"
          className="actions"
        />
        {groups.length > 0 ? (
          <p className="section">
            <Link to="/voice" className="button button--primary">
              Send something new
            </Link>
          </p>
        ) : null}
      </HeldRegion>
    </div>
  );
}
