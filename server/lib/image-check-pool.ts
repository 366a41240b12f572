import { Worker } from 'node:worker_threads';

/**
 * The image check's pool of worker threads (lib/nsfw-worker.mjs), one model per worker, one task per
 * worker at a time. A task is one frame of one picture; the first task of a picture also reads its
 * header and says which frames to look at, so an animation's other frames go to other workers at
 * once. Tasks of a picture already started go before those of later pictures (a check that started
 * finishes first, and its time limit is not spent waiting behind newer ones).
 *
 * Each check (all its frames) is time-bound from its first task on: a check past its limit rejects
 * as unavailable (the routes answer 503) and only the workers running its frames are terminated;
 * other checks go on, and an empty slot starts a fresh worker when a task needs it (not before, so a
 * worker that dies at start cannot spin). The picture's bytes are copied once into shared memory
 * that every worker reads.
 */
export interface PoolOptions {
  size: number;
  workerUrl: URL;
  workerData?: unknown;
  /** Read when each check starts, so a test may change it between checks. */
  timeoutMs: () => number;
  /** Called once before the first worker starts (sharp in the main thread: see image-classifier.ts). */
  beforeFirstWorker?: () => Promise<unknown>;
  /** The error a check rejects with when it cannot be answered (the routes answer 503). */
  unavailable: (message: string) => Error;
  log?: { warn: (details: object, message: string) => void };
}

/** One classified frame (frame 0 for a still picture): class name → probability. */
export interface PoolFrame {
  frame: number;
  probabilities: Record<string, number>;
}

/** A checked picture: its frames in order, or why it could not be decoded. */
export type PoolAnswer = { frames: PoolFrame[] } | { undecodable: string };

/** What a worker says when its model has loaded. */
export interface WorkerReady {
  backend: string;
  loadMs: number;
}

export interface PoolStats {
  /** Live worker threads. */
  workers: number;
  /** Workers running a task. */
  busy: number;
  /** Tasks waiting for a worker. */
  queued: number;
}

type Message =
  | { ready: true; backend: string; loadMs: number; fallback?: string }
  | { ready: false; error: string }
  | { id: number; frames: number[] }
  | { id: number; frame: number; probabilities: Record<string, number> }
  | { id: number; undecodable: string }
  | { id: number; error: string };

interface Check {
  seq: number;
  bytes: Uint8Array;
  mime: string;
  frames: PoolFrame[];
  /** How many frames the answer needs, once the header was read. */
  expected: number | null;
  running: Set<Slot>;
  timer: NodeJS.Timeout | null;
  settled: boolean;
  resolve: (answer: PoolAnswer) => void;
  reject: (error: Error) => void;
}

interface Task {
  id: number;
  check: Check;
  frame: number;
  probe: boolean;
}

interface Slot {
  worker: Worker | null;
  task: Task | null;
  ready: Promise<WorkerReady> | null;
}

export class ImageCheckPool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private nextSeq = 1;
  private nextTaskId = 1;
  private closed = false;
  private prepared: Promise<unknown> | null = null;

  constructor(private readonly options: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => ({ worker: null, task: null, ready: null }));
  }

  async check(bytes: Buffer, mime: string): Promise<PoolAnswer> {
    await this.prepare();
    if (this.closed) throw this.options.unavailable('image check stopped');
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
    shared.set(bytes);
    return new Promise<PoolAnswer>((resolve, reject) => {
      const check: Check = { seq: this.nextSeq++, bytes: shared, mime, frames: [], expected: null, running: new Set(), timer: null, settled: false, resolve, reject };
      this.enqueue({ id: this.nextTaskId++, check, frame: 0, probe: true });
      this.dispatch();
    });
  }

  /** Starts every worker now; resolves when each has loaded its model (at once, with none, once closed). */
  async warm(): Promise<WorkerReady[]> {
    await this.prepare();
    if (this.closed) return [];
    return Promise.all(this.slots.map((slot) => this.start(slot).ready!));
  }

  stats(): PoolStats {
    return {
      workers: this.slots.filter((s) => s.worker).length,
      busy: this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
    };
  }

  /** Ends every worker; checks still waiting or running reject as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = this.options.unavailable('image check stopped');
    for (const task of this.queue.splice(0)) this.fail(task.check, stopped);
    const exits: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      if (slot.task) this.fail(slot.task.check, stopped);
      const w = slot.worker;
      this.empty(slot);
      if (w) exits.push(w.terminate());
    }
    await Promise.all(exits);
  }

  private prepare() {
    return (this.prepared ??= (this.options.beforeFirstWorker?.() ?? Promise.resolve()).catch((error: unknown) => {
      this.prepared = null;
      throw error;
    }));
  }

  /** Keeps the queue ordered by check, then frame. */
  private enqueue(task: Task) {
    const at = this.queue.findIndex((t) => t.check.seq > task.check.seq || (t.check.seq === task.check.seq && t.frame > task.frame));
    if (at === -1) this.queue.push(task);
    else this.queue.splice(at, 0, task);
  }

  private dispatch() {
    while (!this.closed && this.queue.length > 0) {
      // A slot whose worker is up before an empty one (an empty one would first load a model).
      const slot = this.slots.find((s) => s.worker && !s.task) ?? this.slots.find((s) => !s.task);
      if (!slot) return;
      const task = this.queue.shift()!;
      if (task.check.settled) continue;
      this.send(slot, task);
    }
  }

  private send(slot: Slot, task: Task) {
    const { check } = task;
    const worker = this.start(slot).worker!;
    slot.task = task;
    check.running.add(slot);
    check.timer ??= setTimeout(() => this.timeOut(check), this.options.timeoutMs());
    worker.postMessage({ id: task.id, bytes: check.bytes, mime: check.mime, frame: task.frame, probe: task.probe });
  }

  private start(slot: Slot): Slot {
    if (slot.worker) return slot;
    const worker = new Worker(this.options.workerUrl, { workerData: this.options.workerData });
    worker.unref();
    let answered: (ready: WorkerReady) => void = () => undefined;
    let refused: (error: Error) => void = () => undefined;
    const ready = new Promise<WorkerReady>((resolve, reject) => {
      answered = resolve;
      refused = reject;
    });
    ready.catch(() => undefined);
    slot.worker = worker;
    slot.ready = ready;
    worker.on('message', (message: Message) => {
      if ('ready' in message) {
        if (!message.ready) return this.broken(slot, worker, this.options.unavailable(`image check did not start: ${message.error}`), refused);
        if (message.fallback) this.options.log?.warn({ backend: message.backend, reason: message.fallback }, 'image check: fell back to the CPU backend');
        return answered({ backend: message.backend, loadMs: message.loadMs });
      }
      if (slot.worker === worker) this.answer(slot, message);
    });
    const gone = (error: Error) => {
      refused(error);
      if (slot.worker !== worker) return;
      const task = slot.task;
      this.empty(slot);
      if (task) this.fail(task.check, error);
      this.dispatch();
    };
    worker.on('error', (error) => gone(this.options.unavailable(error.message)));
    worker.on('exit', () => gone(this.options.unavailable('image check stopped')));
    return slot;
  }

  /** A worker whose model did not load: its check fails with the reason and it goes (a later task starts a fresh one). */
  private broken(slot: Slot, worker: Worker, error: Error, refused: (error: Error) => void) {
    refused(error);
    this.options.log?.warn({ err: error }, 'image check: a worker could not load the model');
    if (slot.worker !== worker) return;
    const task = slot.task;
    this.empty(slot);
    if (task) this.fail(task.check, error);
    void worker.terminate();
    this.dispatch();
  }

  private answer(slot: Slot, message: Exclude<Message, { ready: boolean }>) {
    const task = slot.task;
    if (!task || message.id !== task.id) return;
    const { check } = task;
    if ('frames' in message) {
      check.expected = message.frames.length;
      for (const frame of message.frames) if (frame !== task.frame) this.enqueue({ id: this.nextTaskId++, check, frame, probe: false });
      this.dispatch();
      return;
    }
    slot.task = null;
    check.running.delete(slot);
    if ('error' in message) this.fail(check, this.options.unavailable(message.error));
    else if ('undecodable' in message) this.settle(check, () => check.resolve({ undecodable: message.undecodable }));
    else if (!check.settled) {
      check.frames.push({ frame: message.frame, probabilities: message.probabilities });
      if (check.frames.length === check.expected) this.settle(check, () => check.resolve({ frames: check.frames.sort((a, b) => a.frame - b.frame) }));
    }
    this.dispatch();
  }

  /** Only the workers running this check are ended, and replaced at once (the pool stays warm). */
  private timeOut(check: Check) {
    const stuck = [...check.running];
    this.fail(check, this.options.unavailable('image check timed out'));
    for (const slot of stuck) {
      const w = slot.worker;
      this.empty(slot);
      void w?.terminate();
      if (!this.closed) this.start(slot);
    }
    this.dispatch();
  }

  private fail(check: Check, error: Error) {
    this.settle(check, () => check.reject(error));
  }

  /** Ends a check once: its timer stops and its waiting frames leave the queue. */
  private settle(check: Check, end: () => void) {
    if (check.settled) return;
    check.settled = true;
    if (check.timer) clearTimeout(check.timer);
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.check === check) this.queue.splice(i, 1);
    end();
  }

  private empty(slot: Slot) {
    if (slot.task) slot.task.check.running.delete(slot);
    slot.worker = null;
    slot.task = null;
    slot.ready = null;
  }
}
