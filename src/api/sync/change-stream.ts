import { paths } from '@/contract/paths';
import { changeEventSchema, SYNC_TOPICS, type SyncTopic } from '@/contract/sync';
import { getApiBase } from '../base-address';
import { request } from '../client';
import { reopenDelayMs, whenReachable } from './stream-reopen';

export interface ChangeStreamHandlers {
  /** The server says these topics changed. */
  onChange(topics: SyncTopic[]): void;
  /** The stream (re)opened: anything may have been missed while it was down. */
  onOpen?(): void;
}

const known = new Set<string>(SYNC_TOPICS);

/**
 * Listens to `GET /api/v1/sync/stream` (SSE, `event: change`, data `{collections}`), with the
 * session cookie (`withCredentials`). EventSource reconnects by itself after a network error or a
 * stream the server ended, but gives up for good on any other answer than a 200 event stream (a
 * proxy's 502 during a deploy, a 503 while the server restarts, a 401): then this opens a new one,
 * after a wait that grows with each failed try (./stream-reopen.ts) and once the server is
 * reachable. Before opening it asks `HEAD` of the stream through the HTTP client, which learns what
 * EventSource hides: the status. A 401 there expires the session as any request's does (the app
 * signs out, which stops the replication and this stream) and this tries no more; anything but a
 * 2xx waits longer. Returns a function that closes the stream and calls off any try to come.
 * Where EventSource does not exist (Node, old browsers) this does nothing: the periodic pull and
 * the `online`/visibility triggers remain.
 */
export function openChangeStream(handlers: ChangeStreamHandlers): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  let closed = false;
  let source: EventSource | null = null;
  /** Tries since a stream last opened that did not open one. */
  let failures = 0;
  let cancelWait: () => void = () => undefined;
  const asking = new AbortController();

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
  const onOpen = () => {
    failures = 0;
    handlers.onOpen?.();
  };
  // An `error` while CONNECTING is EventSource trying again by itself; CLOSED means it gave up.
  const onError = () => {
    if (source?.readyState !== EventSource.CLOSED) return;
    drop();
    reopenLater();
  };

  function connect(): void {
    source = new EventSource(`${getApiBase()}${paths.syncStream.build()}`, { withCredentials: true });
    source.addEventListener('change', onChange as EventListener);
    source.addEventListener('open', onOpen);
    source.addEventListener('error', onError);
  }

  function drop(): void {
    if (!source) return;
    source.removeEventListener('change', onChange as EventListener);
    source.removeEventListener('open', onOpen);
    source.removeEventListener('error', onError);
    source.close();
    source = null;
  }

  function reopenLater(): void {
    const timer = setTimeout(() => {
      cancelWait = whenReachable(() => void reopen());
    }, reopenDelayMs(failures));
    failures += 1;
    cancelWait = () => clearTimeout(timer);
  }

  async function reopen(): Promise<void> {
    cancelWait = () => undefined;
    const answer = await request(paths.syncStream.build(), { method: 'HEAD', retries: 0, quiet: true, signal: asking.signal });
    if (closed) return;
    if (answer.ok) connect();
    else if (answer.status !== 401 && answer.status !== 419) reopenLater();
  }

  connect();
  return () => {
    closed = true;
    cancelWait();
    asking.abort();
    drop();
  };
}
