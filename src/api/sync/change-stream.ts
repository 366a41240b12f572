import { paths } from '@/contract/paths';
import { changeEventSchema, SYNC_TOPICS, type SyncTopic } from '@/contract/sync';
import { getApiBase } from '../base-address';

export interface ChangeStreamHandlers {
  /** The server says these topics changed. */
  onChange(topics: SyncTopic[]): void;
  /** The stream (re)opened: anything may have been missed while it was down. */
  onOpen?(): void;
}

const known = new Set<string>(SYNC_TOPICS);

/**
 * Listens to `GET /api/v1/sync/stream` (SSE, `event: change`, data `{collections}`), with the
 * session cookie (`withCredentials`). EventSource reconnects by itself after a network error.
 * Returns a function that closes the stream. Where EventSource does not exist (Node, old
 * browsers) this does nothing: the periodic pull and the `online`/visibility triggers remain.
 */
export function openChangeStream(handlers: ChangeStreamHandlers): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource(`${getApiBase()}${paths.syncStream.build()}`, { withCredentials: true });
  const onChange = (event: MessageEvent<unknown>) => {
    let data: unknown;
    try {
      data = typeof event.data === 'string' ? JSON.parse(event.data) : null;
    } catch {
      return;
    }
    const parsed = changeEventSchema.safeParse(data);
    if (!parsed.success) return;
    const topics = parsed.data.collections.filter((c): c is SyncTopic => known.has(c));
    if (topics.length) handlers.onChange(topics);
  };
  const onOpen = () => handlers.onOpen?.();
  source.addEventListener('change', onChange as EventListener);
  source.addEventListener('open', onOpen);
  return () => {
    source.removeEventListener('change', onChange as EventListener);
    source.removeEventListener('open', onOpen);
    source.close();
  };
}
