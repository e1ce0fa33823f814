/**
 * One writer per member across tabs (issue 14 §2). Every tab's engine asks for the Web Lock named after
 * the member's copy; the one that holds it writes, the others wait in the lock's queue and follow through
 * a BroadcastChannel of the same name: the writer posts the sequence it saved, a follower may reload from
 * the copy. When the writer's tab closes, the browser hands the lock to the next tab, which becomes the
 * writer. A lock costs nothing while held and needs no heartbeat (a shared worker would, for its
 * lifetime, hold every tab's engine in one thread).
 */

export type CopyMessage = { type: 'changed'; sequence: number } | { type: 'wiped' };

export interface Coordinator {
  readonly isWriter: boolean;
  /** Tells the other tabs of the same member. */
  post(message: CopyMessage): void;
  onMessage(listener: (message: CopyMessage) => void): () => void;
  onWriter(listener: () => void): () => void;
  close(): void;
}

/** Resolves once this tab is the writer or knows another tab is; without Web Locks (old browsers) a tab is the writer. */
export async function coordinate(name: string): Promise<Coordinator> {
  const messageListeners = new Set<(message: CopyMessage) => void>();
  const writerListeners = new Set<() => void>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
  if (channel) channel.onmessage = (event: MessageEvent<CopyMessage>) => messageListeners.forEach((listener) => listener(event.data));
  const abort = new AbortController();
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let isWriter = false;
  const become = () => {
    isWriter = true;
    writerListeners.forEach((listener) => listener());
    return held;
  };

  const locks = typeof navigator === 'object' ? navigator.locks : undefined;
  if (!locks) isWriter = true;
  else {
    // Free now: take it. Held elsewhere: queue for it, and follow until it comes.
    const granted = await new Promise<boolean>((resolve) => {
      locks
        .request(name, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          return lock ? become() : undefined;
        })
        .catch(() => resolve(false));
    });
    if (!granted) locks.request(name, { signal: abort.signal }, become).catch(() => {});
  }

  return {
    get isWriter() {
      return isWriter;
    },
    post(message) {
      channel?.postMessage(message);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onWriter(listener) {
      writerListeners.add(listener);
      return () => writerListeners.delete(listener);
    },
    close() {
      isWriter = false;
      abort.abort();
      release();
      channel?.close();
      messageListeners.clear();
      writerListeners.clear();
    },
  };
}
