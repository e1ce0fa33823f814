/**
 * A stream hears of events another server committed (issue 15 §2): the hub's poke (from PostgreSQL's notification,
 * live/bridge.ts) makes each of the member's streams read the log from where it is. Over real HTTP: events written
 * to the log without this server publishing them reach the stream once poked, in order, once each; a missed poke
 * is made up by the next; a pokeAll (the notifications' connection back) reads every stream's log; other members'
 * streams read nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/model/types';
import { openStream, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
const WS = 'T0ACMEC01';
const ME = 'U0SIFTME1';

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await signIn(server.url));
});
afterAll(() => server.close());

/** Events another server committed: in the log, never published by this server's hub. */
const commitElsewhere = (userId: string, texts: string[]) =>
  server.store.appendEvents(
    WS,
    texts.map((text) => ({ userId, type: 'custom_view_update', data: { text } })),
    Date.now(),
  );

const texts = (events: LiveEvent[]) => events.filter((e) => e.type === 'custom_view_update').map((e) => (e.data as { text: string }).text);

describe('a poke', () => {
  it("brings another server's events to the stream from the log, in order, once each; a missed poke is made up by the next", async () => {
    const stream = await openStream(server.url, token);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    const [one] = await commitElsewhere(ME, ['one']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(texts(stream.events)).toEqual([]);
    server.hub.poke(WS, ME, one!.sequence);
    await stream.until((events) => texts(events).length === 1);
    // Two commits whose notifications were lost, then a third that arrives.
    await commitElsewhere(ME, ['two', 'three']);
    const [four] = await commitElsewhere(ME, ['four']);
    server.hub.poke(WS, ME, four!.sequence);
    await stream.until((events) => texts(events).length === 4);
    // A late duplicate poke sends nothing twice.
    server.hub.poke(WS, ME, one!.sequence);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(texts(stream.events)).toEqual(['one', 'two', 'three', 'four']);
    const sequences = stream.events.filter((e) => e.type === 'custom_view_update').map((e) => e.sequence!);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(stream.events.filter((e) => e.type === 'custom_view_update').every((e) => e.isReplay === false)).toBe(true);
    stream.close();
  });

  it("pokeAll (the notifications back after a cut) makes every stream read its log; another member's events stay theirs", async () => {
    const stream = await openStream(server.url, token);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    await commitElsewhere('U0SOMEONE', ['not mine']);
    await commitElsewhere(ME, ['while the notifications were cut']);
    server.hub.pokeAll();
    await stream.until((events) => texts(events).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(texts(stream.events)).toEqual(['while the notifications were cut']);
    stream.close();
  });

  it('an event published ahead of one the stream has not had (committed earlier, heard later) makes it read the log: both arrive, in order', async () => {
    const stream = await openStream(server.url, token);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    const [first] = await commitElsewhere(ME, ['committed first, heard later']);
    const [second] = await commitElsewhere(ME, ['committed second, published at once']);
    server.hub.publish(WS, [second!]);
    await stream.until((events) => texts(events).length === 2);
    expect(texts(stream.events)).toEqual(['committed first, heard later', 'committed second, published at once']);
    // The late publish of the first finds it already sent.
    server.hub.publish(WS, [first!]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(texts(stream.events)).toHaveLength(2);
    stream.close();
  });
});
