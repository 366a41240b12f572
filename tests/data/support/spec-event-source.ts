/**
 * An EventSource for Node (which has none before v22), doing what the HTML standard asks of a
 * browser's, as far as the app's stream depends on it: each (re)connection is a new `fetch`, so it
 * carries whatever cookies the browser holds by then; `retry:` sets the wait before reconnecting;
 * a stream the server ends, or a network error, means `error` and a reconnection; an answer that is
 * not 200 `text/event-stream` (a refused cookie's 401) fails the connection for good.
 * Every connection's status is recorded for assertions.
 */
export class SpecEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every instance made, newest last. */
  static readonly made: SpecEventSource[] = [];

  readyState = SpecEventSource.CONNECTING;
  /** The status of each connection, in order. */
  readonly statuses: number[] = [];
  private reconnectMs = 3000;
  private readonly abort = new AbortController();

  constructor(readonly url: string, readonly init: { withCredentials?: boolean } = {}) {
    super();
    SpecEventSource.made.push(this);
    void this.connect();
  }

  close(): void {
    this.readyState = SpecEventSource.CLOSED;
    this.abort.abort();
  }

  private async connect(): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.url, { headers: { accept: 'text/event-stream' }, cache: 'no-store', signal: this.abort.signal });
    } catch {
      return this.reconnect();
    }
    if (this.readyState === SpecEventSource.CLOSED) return;
    this.statuses.push(res.status);
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
      this.readyState = SpecEventSource.CLOSED;
      this.dispatchEvent(new Event('error'));
      return;
    }
    this.readyState = SpecEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let type = '';
    let data: string[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (data.length) this.dispatchEvent(new MessageEvent(type || 'message', { data: data.join('\n') }));
            type = '';
            data = [];
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = value;
          else if (field === 'data') data.push(value);
          else if (field === 'retry' && /^\d+$/.test(value)) this.reconnectMs = Number(value);
        }
      }
    } catch {
      // A network error: reconnect, as when the server ends the stream.
    }
    return this.reconnect();
  }

  private reconnect(): void {
    if (this.readyState === SpecEventSource.CLOSED) return;
    this.readyState = SpecEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
    setTimeout(() => {
      if (this.readyState === SpecEventSource.CONNECTING) void this.connect();
    }, this.reconnectMs);
  }
}
