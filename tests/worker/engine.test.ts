/**
 * The engine and the page bridge joined by a real MessageChannel in one process, against
 * the real server: sign-in, live connection, snapshot, windows, live updates, sending, and
 * every worker subscription released when the page unsubscribes.
 */
import * as Comlink from 'comlink';
import type { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineBootstrap } from '../../src/worker/api';
import { remoteStream, setEngineForTests, type RemoteEngine, command } from '../../src/ui/engine';
import type { ViewWindow } from '../../src/model/rows';
import { rowsOf } from '../fixtures/windows';
import type { ConversationSummary, LiveState, UserData } from '../../src/model/types';
import { EngineStore } from '../../src/worker/store';
import type { Layout } from '../../src/model/layout';
import type { ConversationDetail, IncomingMessage, LoadState } from '../../src/worker/engine';
import type { SearchState } from '../../src/streams/searchResults';
import type { PaletteItem } from '../../src/model/search';
import { api, signIn, startTestServer, type TestServer } from '../server/helpers';
import { browserFetch } from './browserFetch';

let server: TestServer;
let engine: RemoteEngine;
let channel: MessageChannel;
/** The session cookie of the engine's "browser". */
let browserSession: string | null = null;

beforeAll(async () => {
  server = await startTestServer();
  channel = new MessageChannel();
  startEngine(
    channel.port1 as unknown as Comlink.Endpoint,
    browserFetch(server.url, () => browserSession),
  );
  const bootstrap = Comlink.wrap<EngineBootstrap>(channel.port2 as unknown as Comlink.Endpoint);
  engine = (await bootstrap.start({ baseUrl: server.url, debug: false })) as unknown as RemoteEngine;
  setEngineForTests(Promise.resolve(engine));
});

afterAll(async () => {
  await command((e) => e.dispose());
  channel.port1.close();
  channel.port2.close();
  await server.close();
});

/** Holds one subscription (as a screen does) and waits for values matching a predicate. */
function watch<T>(obs: Observable<T>) {
  const values: T[] = [];
  const subscription = obs.subscribe((v) => values.push(v));
  return {
    get latest(): T | undefined {
      return values[values.length - 1];
    },
    get count(): number {
      return values.length;
    },
    until(predicate: (v: T) => boolean, label: string, ms = 8_000): Promise<T> {
      const started = Date.now();
      return new Promise((resolve, reject) => {
        const tick = () => {
          const found = values.find(predicate);
          if (found !== undefined) return resolve(found);
          if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${label}`));
          setTimeout(tick, 10);
        };
        tick();
      });
    },
    stop: () => subscription.unsubscribe(),
  };
}

describe('engine over a MessageChannel', () => {
  it('signs in, connects live, loads the snapshot, serves windows, and stays live', async () => {
    const { token } = await signIn(server.url);
    browserSession = token;
    // The engine follows whom the cookie signs in, as the server says.
    const status = await command((e) => e.authStatus());
    expect(status.user?.id).toBe('U0SIFTME1');

    const live = watch(remoteStream<LiveState>((e, o) => e.liveState(o)));
    const load = watch(remoteStream<LoadState>((e, o) => e.loadState(o)));
    await live.until((s) => s.status === 'connected', 'connected');
    const loaded = await load.until((s) => s.status === 'loaded', 'loaded');

    const all = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
    expect(loaded.total).toBe(all.length);
    const unread = all.filter((c) => c.unread_count_display > 0);

    await command((e) => e.setWindow('w1', 'inbox', 0, 20));
    const win = watch(remoteStream<ViewWindow>((e, o) => e.viewWindow('w1', o)));
    const first = await win.until((w) => w.total > 0, 'first window');
    expect(first.total).toBe(unread.length);
    expect(rowsOf(first)).toHaveLength(Math.min(20, unread.length));
    const times = rowsOf(first).map((r) => r.latest_activity);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // A window is small: rows only, never the whole list.
    expect(JSON.stringify(first).length).toBeLessThan(10 * 1024);

    // Another member posts into a read conversation: it enters the inbox, on top, unread.
    const quiet = all.find((c) => c.unread_count === 0 && c.type === 'channel' && c.member_ids.length > 2)!;
    const sender = quiet.member_ids.find((id) => id !== 'U0SIFTME1')!;
    const { token: senderToken } = await signIn(server.url, sender);
    const sent = await api(server.url, senderToken)('/api/messages/send', { body: { channel: quiet.id, text: 'Can you look at this today?' } });
    expect(sent.status).toBe(200);
    const updated = await win.until((w) => rowsOf(w)[0]?.id === quiet.id, 'the posted conversation on top');
    expect(updated.total).toBe(unread.length + 1);
    expect(rowsOf(updated)[0]).toMatchObject({ id: quiet.id, unread: 1 });
    expect(rowsOf(updated)[0]!.preview).toContain('Can you look at this today?');

    // Opening it streams its messages; sending shows pending, then the server's copy.
    const detail = watch(remoteStream<ConversationDetail>((e, o) => e.conversation(quiet.id, o)));
    const opened = await detail.until((d) => d.status === 'loaded', 'conversation loaded');
    expect(opened.messages.some((m) => m.ts === sent.body.ts)).toBe(true);
    const result = await command((e) => e.send(quiet.id, 'Looking now'));
    expect(result).toEqual({ ok: true });
    await detail.until((d) => d.messages.some((m) => m.text === 'Looking now' && m.pending === true), 'pending copy');
    const after = await detail.until((d) => d.messages.some((m) => m.text === 'Looking now' && !m.pending), 'server copy');
    expect(after.messages.filter((m) => m.text === 'Looking now')).toHaveLength(1);

    // Mark read: it leaves the unread inbox.
    expect(await command((e) => e.markRead(quiet.id))).toBe(true);
    const read = await win.until((w) => w.version > updated.version && !rowsOf(w).some((r) => r.id === quiet.id), 'marked read');
    expect(read.total).toBe(unread.length);
    for (const w of [live, load, win, detail]) w.stop();
  });

  it('marks read and answers the next conversation of the view in one command (Ctrl+E)', async () => {
    const layout: Layout = { order: 'time', headers: false, collapsed: [], query: '' };
    const [first, second] = [await command((e) => e.idAt('inbox', 0, layout)), await command((e) => e.idAt('inbox', 1, layout))];
    const before = (await command((e) => e.facts(first!)))!;
    expect(before.unread).toBeGreaterThan(0);
    const marked = await command((e) => e.markReadAndNext('inbox', first!, layout));
    // It left the unread inbox: the one after it took its place.
    expect(marked).toEqual({ next: second, index: 0, lastRead: before.last_read });
    expect((await command((e) => e.facts(first!)))!.unread).toBe(0);
    expect(await command((e) => e.idAt('inbox', 0, layout))).toBe(second);
    // Already read: nothing to do.
    expect(await command((e) => e.markReadAndNext('inbox', first!, layout))).toBeNull();
    expect(await command((e) => e.markUnread(first!, marked!.lastRead || undefined))).toBe(true);
  });

  it('sends into a thread conversation as a reply to its thread', async () => {
    const { token } = await signIn(server.url);
    const threads = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?type=thread')).body.data
      .conversations;
    const result = await command((e) => e.send(threads[0]!.id, 'Replying in the thread'));
    expect(result).toEqual({ ok: true });
  });

  it("announces live messages from others, formatted for a notification, and never the member's own", async () => {
    const { token } = await signIn(server.url);
    const all = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?type=dm')).body.data.conversations;
    const dm = all[0]!;
    const incoming = watch(remoteStream<IncomingMessage>((e, o) => e.incoming(o)));
    await new Promise((r) => setTimeout(r, 50));
    await command((e) => e.send(dm.id, 'my own words'));
    const { token: theirs } = await signIn(server.url, dm.dm_user);
    await api(server.url, theirs)('/api/messages/send', { body: { channel: dm.id, text: '*Deploy* is blocked on <@U0SIFTME1> ```log```' } });
    const got = await incoming.until((m) => m.conversationId === dm.id, 'incoming');
    expect(got.body).toBe('Deploy is blocked on @Alex Morgan [code block]');
    expect(got.author).not.toBe('');
    expect(incoming.latest?.body).not.toContain('my own words');
    incoming.stop();
  });

  it("searches: local matches at once, then the server's messages merged in", async () => {
    const { token } = await signIn(server.url);
    const channel = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?type=channel')).body.data
      .conversations[0]!;
    await api(server.url, token)('/api/messages/send', { body: { channel: channel.id, text: `Searching for ${channel.name} wombatword` } });
    const results = watch(remoteStream<SearchState<PaletteItem>>((e, o) => e.search(o)));
    await command((e) => e.setSearchQuery(channel.name));
    const searching = await results.until((s) => s.query === channel.name && s.status === 'searching', 'local results');
    expect(searching.results.conversations[0]).toMatchObject({ kind: 'conversation', id: channel.id, title: channel.name });
    const done = await results.until((s) => s.query === channel.name && s.status === 'done', 'server results');
    expect(done.results.conversations[0]!.id).toBe(channel.id);
    expect(done.results.messages.some((m) => m.kind === 'message' && m.text.includes('wombatword'))).toBe(true);
    await command((e) => e.setSearchQuery('w'));
    await results.until((s) => s.status === 'idle', 'cleared');
    results.stop();
  });

  it('re-sends an open conversation only when it changed: nothing for a message elsewhere, once for one in it', async () => {
    const { token } = await signIn(server.url);
    const channels = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?type=channel')).body.data
      .conversations;
    // Two channels and someone else who is in both.
    let pair: [ConversationSummary, ConversationSummary, string] | undefined;
    for (const a of channels)
      for (const b of channels) {
        const shared = a.id !== b.id ? a.member_ids.find((id) => id !== 'U0SIFTME1' && b.member_ids.includes(id)) : undefined;
        if (shared && !pair) pair = [a, b, shared];
      }
    const [open, elsewhere, sender] = pair!;
    const { token: theirs } = await signIn(server.url, sender);
    const detail = watch(remoteStream<ConversationDetail>((e, o) => e.conversation(open.id, o)));
    await detail.until((d) => d.status === 'loaded', 'conversation loaded');
    await new Promise((r) => setTimeout(r, 100));
    try {
      const before = detail.count;

      const unreadBefore = (await command((e) => e.facts(elsewhere.id)))!.unread;
      await api(server.url, theirs)('/api/messages/send', { body: { channel: elsewhere.id, text: 'Somewhere else' } });
      const started = Date.now();
      while ((await command((e) => e.facts(elsewhere.id)))!.unread === unreadBefore && Date.now() - started < 8_000)
        await new Promise((r) => setTimeout(r, 10));
      expect((await command((e) => e.facts(elsewhere.id)))!.unread).toBe(unreadBefore + 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(detail.count).toBe(before);

      const sent = await api(server.url, theirs)('/api/messages/send', { body: { channel: open.id, text: 'Right here' } });
      await detail.until((d) => d.messages.some((m) => m.ts === sent.body.ts), 'the message in the open conversation');
      await new Promise((r) => setTimeout(r, 100));
      expect(detail.count).toBe(before + 1);
      expect(detail.latest?.conversation?.latest_message?.ts).toBe(sent.body.ts);
    } finally {
      detail.stop();
    }
  });

  it('reports a failed send without losing anything', async () => {
    const result = await command((e) => e.send('CDOESNOTEXIST', 'hello'));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/Unknown conversation/);
  });

  it('releases every worker subscription when the page unsubscribes', async () => {
    const base = await command((e) => e.openSubscriptions());
    const subs = [
      remoteStream<LiveState>((e, o) => e.liveState(o)).subscribe(),
      remoteStream<LoadState>((e, o) => e.loadState(o)).subscribe(),
      remoteStream<ViewWindow>((e, o) => e.viewWindow('w2', o)).subscribe(),
    ];
    await new Promise((r) => setTimeout(r, 100));
    expect(await command((e) => e.openSubscriptions())).toBe(base + 3);
    for (const s of subs) s.unsubscribe();
    await new Promise((r) => setTimeout(r, 100));
    expect(await command((e) => e.openSubscriptions())).toBe(0);
  });
});

describe('a list that remounts under the same key', () => {
  it('keeps receiving its windows after the old subscription ends (a filter typed after a remount still filters)', async () => {
    const all = watch(remoteStream<ViewWindow>((e, o) => e.viewWindow('w3', o)));
    await command((e) => e.setWindow('w3', 'conversations', 0, 20));
    const unfiltered = await all.until((w) => w.viewId === 'conversations' && w.total > 1, 'the unfiltered window');
    // The remount: the new reader subscribes before the old one's teardown reaches the worker.
    const again = watch(remoteStream<ViewWindow>((e, o) => e.viewWindow('w3', o)));
    await again.until((w) => w.viewId === 'conversations' && w.total === unfiltered.total, 'the second reader');
    all.stop();
    await new Promise((r) => setTimeout(r, 100));
    const name = rowsOf(unfiltered)[0]!.name;
    await command((e) => e.setWindow('w3', 'conversations', 0, 20, { layout: { order: 'time', headers: false, collapsed: [], query: name.toUpperCase() } }));
    const filtered = await again.until((w) => w.total < unfiltered.total, 'the filtered window');
    expect(rowsOf(filtered).some((r) => r.name === name)).toBe(true);
    again.stop();
  });

  it('sends the window of a new filter text even when it has as many rows as the last one', async () => {
    // Two filter texts with the same number of matches (computed over the same data with the worker's own store).
    const { token } = await signIn(server.url);
    const data = (await api(server.url, token)<{ data: { conversations: ConversationSummary[]; users: Record<string, UserData> } }>('/api/conversations/data'))
      .body.data;
    const local = new EngineStore({ warn: () => {} });
    local.replaceAll(data.conversations, data.users);
    const layout = (query: string): Layout => ({ order: 'time', headers: false, collapsed: [], query });
    const idsFor = (q: string) =>
      rowsOf(local.window('conversations', 0, 50, layout(q)))
        .map((r) => r.id)
        .sort();
    const byCount = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (const c of data.conversations.filter((x) => x.type === 'channel')) {
      const ids = idsFor(c.name);
      const other = byCount.get(ids.length);
      if (other !== undefined && idsFor(other).join() !== ids.join()) {
        pair = [other, c.name];
        break;
      }
      byCount.set(ids.length, c.name);
    }
    expect(pair).toBeDefined();
    const [first, second] = pair!;
    const win = watch(remoteStream<ViewWindow>((e, o) => e.viewWindow('w4', o)));
    await command((e) => e.setWindow('w4', 'conversations', 0, 50, { layout: layout(first) }));
    await win.until(
      (w) =>
        rowsOf(w)
          .map((r) => r.id)
          .sort()
          .join() === idsFor(first).join(),
      'the first filter',
    );
    await command((e) => e.setWindow('w4', 'conversations', 0, 50, { layout: layout(second) }));
    await win.until(
      (w) =>
        rowsOf(w)
          .map((r) => r.id)
          .sort()
          .join() === idsFor(second).join(),
      'the second filter, as many rows',
    );
    win.stop();
  });
});

describe('engine start-up without data (SPEC §4.3)', () => {
  it('answers a 404 on the first page with a full fetch from the workspace, then loads', async () => {
    const server2 = await startTestServer();
    const calls: string[] = [];
    let refused = false;
    // The real server, except that the first data call answers 404 as a workspace with nothing fetched yet would.
    const fetchFn: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      calls.push(new URL(url).pathname);
      if (!refused && url.includes('/api/conversations/data')) {
        refused = true;
        return new Response(JSON.stringify({ error: 'No data' }), { status: 404, headers: { 'content-type': 'application/json' } });
      }
      return browserFetch(server2.url, () => session)(input, init);
    };
    let session: string | null = null;
    const channel2 = new MessageChannel();
    startEngine(channel2.port1 as unknown as Comlink.Endpoint, fetchFn);
    const boot = Comlink.wrap<EngineBootstrap>(channel2.port2 as unknown as Comlink.Endpoint);
    const api2 = (await boot.start({ baseUrl: server2.url, debug: false })) as unknown as RemoteEngine;
    session = (await signIn(server2.url)).token;
    await api2.authStatus();
    const states: LoadState[] = [];
    const unsubscribe = await api2.loadState(Comlink.proxy({ next: (s: LoadState) => void states.push(s), error: () => {}, complete: () => {} }));
    const started = Date.now();
    while (!states.some((s) => s.status === 'loaded') && Date.now() - started < 8_000) await new Promise((r) => setTimeout(r, 20));
    expect(states.some((s) => s.status === 'loaded' && s.total > 100)).toBe(true);
    const dataCalls = calls.map((p, i) => [p, i] as const).filter(([p]) => p === '/api/conversations/data');
    const fetchAll = calls.indexOf('/api/conversations/fetch-all');
    expect(fetchAll).toBeGreaterThan(dataCalls[0]![1]);
    expect(dataCalls[1]![1]).toBeGreaterThan(fetchAll);
    await unsubscribe();
    await api2.dispose();
    channel2.port1.close();
    channel2.port2.close();
    await server2.close();
  });
});
