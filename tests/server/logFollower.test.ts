/**
 * The follower (live/bridge.ts, issue 15 §2) delivers another server's commits to this server's streams: one read
 * per member however many streams, nothing for this server's own commits or for members without a stream here,
 * and never past a stream that started behind the others.
 */
import { describe, expect, it } from 'vitest';
import { LogFollower } from '../../src/server/live/bridge';
import { LiveHub } from '../../src/server/live/hub';
import type { StoredEvent } from '../../src/server/store/types';

const logged = (n: number): StoredEvent[] => Array.from({ length: n }, (_, i) => ({ type: 'x', data: {}, sequence: i + 1, timestamp: 0 }));

function setUp(log: StoredEvent[]) {
  const hub = new LiveHub();
  const reads: number[] = [];
  const follower = new LogFollower(hub, async (_ws, _user, after, limit) => {
    reads.push(after);
    return log.filter((e) => e.sequence > after).slice(0, limit);
  });
  const stream = (startsAt: number) => {
    const got: number[] = [];
    hub.subscribe('T1', 'U1', (e) => got.push(e.sequence));
    hub.reached('T1', 'U1', startsAt);
    return got;
  };
  return { hub, reads, follower, stream };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('LogFollower', () => {
  it('reads once for all the member’s streams and delivers to each', async () => {
    const { reads, follower, stream } = setUp(logged(3));
    const [x, y] = [stream(0), stream(0)];
    follower.notice({ workspaceId: 'T1', userId: 'U1', sequence: 3 });
    await settle();
    expect(reads).toEqual([0]);
    expect(x).toEqual([1, 2, 3]);
    expect(y).toEqual([1, 2, 3]);
  });

  it('reads from the stream furthest behind: a stream started later does not hide what an earlier one lacks', async () => {
    const { reads, follower, stream } = setUp(logged(15));
    const x = stream(10);
    const y = stream(15);
    follower.notice({ workspaceId: 'T1', userId: 'U1', sequence: 15 });
    await settle();
    expect(reads).toEqual([10]);
    expect(x).toEqual([11, 12, 13, 14, 15]);
    expect(y.filter((s) => s > 15)).toEqual([]);
  });

  it('ignores its own server’s commits and members without a stream here', async () => {
    const { hub, reads, follower, stream } = setUp(logged(2));
    stream(0);
    hub.publish('T1', [
      { userId: 'U1', type: 'x', data: {}, sequence: 1, timestamp: 0 },
      { userId: 'U1', type: 'x', data: {}, sequence: 2, timestamp: 0 },
    ]);
    follower.notice({ workspaceId: 'T1', userId: 'U1', sequence: 2 });
    follower.notice({ workspaceId: 'T1', userId: 'U2', sequence: 7 });
    await settle();
    expect(reads).toEqual([]);
  });

  it('pokes a stream that is still starting (subscribed, its start not yet told), which then reads for itself', async () => {
    const { hub, reads, follower } = setUp(logged(1));
    const pokes: number[] = [];
    hub.subscribe('T1', 'U1', () => undefined);
    hub.onPoke('T1', 'U1', (sequence) => pokes.push(sequence));
    follower.notice({ workspaceId: 'T1', userId: 'U1', sequence: 1 });
    await settle();
    expect(pokes).toEqual([1]);
    expect(reads).toEqual([]);
  });

  it('coalesces notices that arrive during a read, and pokes the streams when the read fails', async () => {
    const hub = new LiveHub();
    const reads: number[] = [];
    let fail = false;
    const log = logged(5);
    const follower = new LogFollower(hub, async (_ws, _user, after) => {
      reads.push(after);
      await settle();
      if (fail) throw new Error('connection lost');
      return log.filter((e) => e.sequence > after && e.sequence <= 3);
    });
    const got: number[] = [];
    hub.subscribe('T1', 'U1', (e) => got.push(e.sequence));
    hub.reached('T1', 'U1', 0);
    for (const sequence of [1, 2, 3]) follower.notice({ workspaceId: 'T1', userId: 'U1', sequence });
    await settle();
    await settle();
    expect(reads).toEqual([0]);
    expect(got).toEqual([1, 2, 3]);
    const pokes: number[] = [];
    hub.onPoke('T1', 'U1', (sequence) => pokes.push(sequence));
    fail = true;
    follower.notice({ workspaceId: 'T1', userId: 'U1', sequence: 5 });
    await settle();
    await settle();
    expect(pokes).toEqual([5]);
  });
});
