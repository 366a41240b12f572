/**
 * What section a measures and how it is reported, apart from ./sync-replica.ts (which loads the
 * data layer): the Node side of the Chromium run imports this without the app's modules.
 */

export interface RequestCount {
  requests: number;
  calendarRequests: number;
  /** Bytes on the wire (Content-Length, else the body's length). */
  responseBytes: number;
}

export interface ReplicaSync extends RequestCount {
  /** Until every replication's first pull is written (what ends the screens' "loading"). */
  ms: number;
  /** Until RxDB says every replication is in sync, which also waits for its database to be idle. */
  inSyncMs: number;
  calendarDocuments: number;
  /** The calendar's page size, the app's own (src/data/replication/endpoints.ts). */
  perPage: number;
}

/** A sync as `npm run bench` reports it: milliseconds to 0.1. */
export function syncReport(documents: number, synced: ReplicaSync) {
  const round = (n: number) => Number(n.toFixed(1));
  return {
    documents,
    calendarDocuments: synced.calendarDocuments,
    ms: round(synced.ms),
    inSyncMs: round(synced.inSyncMs),
    docsPerSecond: Math.round((synced.calendarDocuments / synced.ms) * 1000),
    requests: synced.requests,
    calendarRequests: synced.calendarRequests,
    responseBytes: synced.responseBytes,
    perPage: synced.perPage,
  };
}
