/**
 * What the app relies on of a browser's EventSource, driven by the test: it connects to nothing,
 * and the test says what the browser saw (src/api/sync/change-stream.ts). For a real server's
 * stream, see tests/data/support/spec-event-source.ts.
 */
export class DrivenEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every instance made, newest last (tests empty it). */
  static made: DrivenEventSource[] = [];
  readyState = DrivenEventSource.CONNECTING;

  constructor(
    readonly url: string,
    readonly init: EventSourceInit = {},
  ) {
    super();
    DrivenEventSource.made.push(this);
  }

  close(): void {
    this.readyState = DrivenEventSource.CLOSED;
  }

  /** The server answered 200 `text/event-stream`. */
  opens(): void {
    this.readyState = DrivenEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** A network error, or a stream the server ended: the browser reconnects by itself. */
  reconnects(): void {
    this.readyState = DrivenEventSource.CONNECTING;
    this.dispatchEvent(new Event('error'));
  }

  /** Any other answer than a 200 event stream (a 502, a 503, a 401): the browser gives up for good. */
  givesUp(): void {
    this.readyState = DrivenEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }
}
