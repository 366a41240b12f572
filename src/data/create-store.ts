import { startTransition, useEffect, useRef, useState, useSyncExternalStore } from 'react';

export interface Store<T> {
  get(): T;
  set(next: T | ((previous: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

/** Subscribes a component to a store. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * Subscribes a component to one value derived from a store: it re-renders only when that value
 * changes (`Object.is`), not on every change of the store. `select` must return a primitive or a
 * stable reference.
 */
export function useStoreSelector<T, S>(store: Store<T>, select: (state: T) => S): S {
  const read = () => select(store.get());
  return useSyncExternalStore(store.subscribe, read, read);
}

const never = (): boolean => false;

/**
 * Follows a value that changes by itself, in a transition rather than with `useSyncExternalStore`,
 * whose every change is an urgent update: at a signed-in start those interrupted the screens'
 * rendering and ran their effects in the same task (issue 13). A value equal to the one last asked
 * for is no update (a transition that arrives while another renders makes React start that
 * rendering again). `urgent` values skip the transition (a replica that closes is never held back).
 * `subscribe`, `read` and `urgent` must be stable (module-level) functions.
 */
export function useInTransition<T>(subscribe: (listener: () => void) => () => void, read: () => T, urgent: (next: T) => boolean = never): T {
  const [value, setValue] = useState(read);
  const asked = useRef(value);
  useEffect(() => {
    const follow = (): void => {
      const next = read();
      if (Object.is(next, asked.current)) return;
      asked.current = next;
      if (urgent(next)) setValue(() => next);
      else startTransition(() => setValue(() => next));
    };
    follow();
    return subscribe(follow);
  }, [subscribe, read, urgent]);
  return value;
}

/** A tiny external store for `useSyncExternalStore`; `set` with an equal value notifies nobody. */
export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const store: Store<T> = {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (previous: T) => T)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return store;
}

/** localStorage that never throws (private mode, quota, a locked-down tablet). */
export const local = {
  read(key: string): unknown {
    try {
      const raw = globalThis.localStorage?.getItem(key);
      return raw ? (JSON.parse(raw) as unknown) : null;
    } catch {
      return null;
    }
  },
  write(key: string, value: unknown): void {
    try {
      globalThis.localStorage?.setItem(key, JSON.stringify(value));
    } catch {
      /* storage full or unavailable: the in-memory state still works */
    }
  },
  remove(key: string): void {
    try {
      globalThis.localStorage?.removeItem(key);
    } catch {
      /* ignore */
    }
  },
};
