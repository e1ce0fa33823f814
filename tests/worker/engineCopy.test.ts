/**
 * The engine with its local copy (issue 14 §2, §3), over a real MessageChannel against the real
 * server, the copy in an in-memory IndexedDB (fake-indexeddb; the browser's own is proven in
 * tests/e2e/localCopy.test.ts): a second start paints from the copy without downloading the
 * snapshot and gets what changed while it was closed from the replay; a copy the server cannot
 * replay from is replaced by a fresh snapshot without the list emptying; the server unreachable,
 * the engine opens as the last member from the copy; logout leaves nothing of the member.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationDetail, LoadState } from '../../src/worker/engine';
import type { ViewWindow } from '../../src/model/rows';
import type { ConversationSummary } from '../../src/model/types';
import { openLocalCopy } from '../../src/worker/localCopy/localCopy';
import { api, signIn, startTestServer, type TestServer } from '../server/helpers';
import { loaded, startPageEngine, stream, until, type PageEngine } from './pageEngine';

let server: TestServer;
let token: string;
/** The demo member, as the engine keys the copy: workspace:user. */
const MEMBER = 'T0ACMEC01:U0SIFTME1';

beforeAll(async () => {
  globalThis.indexedDB = new IDBFactory();
  server = await startTestServer();
  ({ token } = await signIn(server.url));
});
afterAll(async () => {
  await server.close();
});

const start = (options: { offline?: boolean } = {}) => startPageEngine(server.url, () => token, options);

async function copySequence(): Promise<number | undefined> {
  const copy = await openLocalCopy(MEMBER);
  const saved = await copy?.load();
  copy?.close();
  return saved?.sequence;
}

/** Waits until the member's copy is saved up to at least `sequence` (the engine saves at most once a second). */
async function copySavedTo(sequence: number): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const saved = await copySequence();
    if (saved !== undefined && saved >= sequence) return saved;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the copy never reached sequence ${sequence}`);
}

const current = async () => (await api(server.url, token)<{ currentSequence: number }>('/api/sse/stats')).body.currentSequence;

describe('the engine with a local copy', () => {
  let total = 0;

  it('a first start loads the snapshot and saves the copy with its sequence', async () => {
    const page = await start();
    await page.engine.authStatus();
    total = (await loaded(page.engine)).total;
    expect(total).toBeGreaterThan(10);
    expect(page.requests).toContain('/api/conversations/data');
    await copySavedTo(await current());
    await page.close();
  });

  it('a second start paints from the copy without the snapshot, and the replay brings what changed while closed', async () => {
    const conversations = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=3')).body.data
      .conversations;
    const target = conversations[2]!;
    await api(server.url, token)('/api/messages/send', {
      method: 'POST',
      body: { channel: target.id, text: 'sent while Sift was closed', client_msg_id: crypto.randomUUID() },
    });

    const page = await start();
    await page.engine.authStatus();
    expect((await loaded(page.engine)).total).toBe(total);
    expect(page.requests).not.toContain('/api/conversations/data');
    // The change arrives by the replay: the conversation's latest message is the one sent while closed.
    const detail = await firstValueFrom(
      stream<ConversationDetail>((o) => page.engine.conversation(target.id, o as never)).pipe(
        filter((d) => d.conversation?.latest_message?.text === 'sent while Sift was closed'),
      ),
    );
    expect(detail.conversation?.id).toBe(target.id);
    await copySavedTo(await current());
    await page.close();
  });

  /** Plants a head of three rows, as a copy of 100,000 conversations has a few hundred; answers the whole copy's size. */
  async function plantSmallHead(): Promise<number> {
    const copy = (await openLocalCopy(MEMBER))!;
    const saved = (await copy.load())!;
    const head = { conversations: saved.conversations.slice(0, 3), users: saved.users.slice(0, 1), total: saved.conversations.length };
    await copy.saveChanges({ sequence: saved.sequence, head });
    copy.close();
    return saved.conversations.length;
  }

  /** The moments (ms since `from`) the list was painted from the head and then filed whole. */
  async function filing(page: PageEngine, from: number) {
    const at: Partial<Record<LoadState['status'], number>> = {};
    const sub = stream<LoadState>((o) => page.engine.loadState(o as never)).subscribe((s) => (at[s.status] ??= Date.now() - from));
    await until(() => at.loaded !== undefined, 'the whole copy filed');
    sub.unsubscribe();
    return at;
  }

  it('reads the rest of the copy once the page has its first screen, or after half a second without one', async () => {
    await plantSmallHead();
    const idle = await start();
    const idleAt = filing(idle, Date.now());
    await idle.engine.authStatus();
    const { loading, loaded } = await idleAt;
    // Nobody asked for a window: the rest waits for the deadline.
    expect(loaded! - loading!).toBeGreaterThanOrEqual(400);
    await idle.close();

    await plantSmallHead();
    const shown = await start();
    const windows = stream<ViewWindow>((o) => shown.engine.viewWindow('list', o as never)).subscribe();
    await shown.engine.setWindow('list', 'conversations', 0, 20);
    const shownAt = filing(shown, Date.now());
    await shown.engine.authStatus();
    const served = await shownAt;
    expect(served.loaded! - served.loading!).toBeLessThan(400);
    windows.unsubscribe();
    await shown.close();
  });

  it('a reload asked for while the rest of the copy is read owns the list: the older copy never overwrites it', async () => {
    await plantSmallHead();
    const copy = (await openLocalCopy(MEMBER))!;
    const saved = (await copy.load())!;
    const target = saved.conversations.filter((c) => c.type === 'channel').at(-1)!;
    await copy.saveChanges({ sequence: saved.sequence, conversations: [{ ...target, name: 'stale-name-from-the-copy' }] });
    copy.close();
    const page = await start();
    const states: LoadState[] = [];
    const watching = stream<LoadState>((o) => page.engine.loadState(o as never)).subscribe((state) => states.push(state));
    await page.engine.authStatus();
    await until(() => states.some((state) => state.status === 'loading'), 'the head painted');
    // Nobody shows a window: the rest of the copy is read at the deadline, after this reload is done.
    await page.engine.reload();
    await until(() => page.requests.includes('/api/conversations/data') && states.at(-1)?.status === 'loaded', 'the reload');
    watching.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await page.engine.facts(target.id))?.name).toBe(target.name);
    await page.close();
  });

  it('a warm start paints the head of the copy first (loading, the whole count known), then files the whole behind it', async () => {
    const whole = await plantSmallHead();
    const saved = { conversations: { length: whole } };
    const page = await start();
    const states: LoadState[] = [];
    const sub = stream<LoadState>((o) => page.engine.loadState(o as never)).subscribe((s) => states.push(s));
    await page.engine.authStatus();
    await until(() => states.at(-1)?.status === 'loaded', 'the whole copy filed');
    sub.unsubscribe();
    const painted = states.findIndex((s) => s.status !== 'idle');
    expect(states.slice(painted)).toEqual([
      { status: 'loading', loaded: 3, total: saved.conversations.length },
      { status: 'loaded', loaded: saved.conversations.length, total: saved.conversations.length },
    ]);
    expect(page.requests).not.toContain('/api/conversations/data');
    await page.close();
  });

  it('the member signed in last resumes from the copy before the server says who is signed in; its answer confirms it, nothing reloads', async () => {
    const page = await start();
    const resumed = await page.engine.resumeLastSession();
    expect(resumed?.user?.id).toBe('U0SIFTME1');
    expect((await loaded(page.engine)).total).toBe(total);
    expect(page.requests).not.toContain('/api/auth/status');
    expect((await page.engine.authStatus()).user?.id).toBe('U0SIFTME1');
    // Asked again once answered, it resumes nothing.
    expect(await page.engine.resumeLastSession()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(page.requests).not.toContain('/api/conversations/data');
    await page.close();
  });

  it('a copy the server cannot replay from (it is ahead of the log) is replaced by a fresh snapshot, the list never empty', async () => {
    const copy = (await openLocalCopy(MEMBER))!;
    await copy.saveChanges({ sequence: 10_000_000 });
    copy.close();
    const page = await start();
    await page.engine.authStatus();
    const states: LoadState[] = [];
    const sub = stream<LoadState>((o) => page.engine.loadState(o as never)).subscribe((s) => states.push(s));
    for (let i = 0; i < 200 && !page.requests.includes('/api/conversations/data'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(page.requests).toContain('/api/conversations/data');
    for (let i = 0; i < 200 && (states.at(-1)?.status !== 'loaded' || states.length < 2); i++) await new Promise((r) => setTimeout(r, 25));
    sub.unsubscribe();
    // From the paint on, every state while reloading still counts the conversations held.
    const painted = states.findIndex((s) => s.status === 'loaded');
    expect(painted).toBeGreaterThanOrEqual(0);
    expect(states.slice(painted).every((s) => s.loaded > 0)).toBe(true);
    // The fresh snapshot replaces the copy whole, with the server's sequence.
    const server = await current();
    for (let i = 0; i < 100 && (await copySequence()) !== server; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await copySequence()).toBe(server);
    await page.close();
  });

  it('a conversation read before reads offline too, from the copy', async () => {
    const [target] = (await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=1')).body.data
      .conversations;
    const online = await start();
    await online.engine.authStatus();
    await loaded(online.engine);
    const read = await firstValueFrom(
      stream<ConversationDetail>((o) => online.engine.conversation(target!.id, o as never)).pipe(filter((d) => d.status === 'loaded')),
    );
    expect(read.messages.length).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) {
      const copy = await openLocalCopy(MEMBER);
      const saved = await copy?.load();
      copy?.close();
      if (saved?.messages[target!.id]?.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await online.close();

    const offline = await start({ offline: true });
    await offline.engine.authStatus();
    await loaded(offline.engine);
    const again = await firstValueFrom(
      stream<ConversationDetail>((o) => offline.engine.conversation(target!.id, o as never)).pipe(filter((d) => d.status !== 'loading')),
    );
    expect(again.status).toBe('loaded');
    expect(again.messages.map((m) => m.text)).toEqual(read.messages.slice(-100).map((m) => m.text));
    // One never opened has nothing saved: the usual error.
    const other = (
      await api(server.url, token)<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data?limit=40')
    ).body.data.conversations.at(-1)!;
    const never = await firstValueFrom(
      stream<ConversationDetail>((o) => offline.engine.conversation(other.id, o as never)).pipe(filter((d) => d.status !== 'loading')),
    );
    expect(never.status).toBe('error');
    await offline.close();
  });

  it('with the server unreachable it opens as the last member, from the copy', async () => {
    const page = await start({ offline: true });
    const status = await page.engine.authStatus();
    expect(status.user?.id).toBe('U0SIFTME1');
    expect((await loaded(page.engine)).total).toBe(total);
    await page.close();
  });

  it('a session revoked elsewhere: the next request answers 401, the engine signs out and the copy is wiped', async () => {
    const page = await start();
    await page.engine.authStatus();
    await loaded(page.engine);
    await copySavedTo(0);
    // The member revokes every session from another client (the same session, as the server sees it).
    await api(server.url, token)('/api/auth/revoke', { method: 'POST', body: {} });
    await page.engine.reload();
    const live = await firstValueFrom(stream<{ status: string }>((o) => page.engine.liveState(o as never)).pipe(filter((s) => s.status === 'unauthenticated')));
    expect(live.status).toBe('unauthenticated');
    for (let i = 0; i < 100 && (await indexedDB.databases()).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await indexedDB.databases()).toEqual([]);
    await page.close();
    ({ token } = await signIn(server.url));
  });

  it('a session that ended while Sift was closed: the next start finds nobody signed in and wipes the copy', async () => {
    const page = await start();
    await page.engine.authStatus();
    await loaded(page.engine);
    await copySavedTo(0);
    await page.close();
    await api(server.url, token)('/api/auth/revoke', { method: 'POST', body: {} });
    const next = await start();
    // Resumed from the copy at first; the server's answer signs out and wipes it.
    expect((await next.engine.resumeLastSession())?.user?.id).toBe('U0SIFTME1');
    expect((await next.engine.authStatus()).authenticated).toBe(false);
    for (let i = 0; i < 100 && (await indexedDB.databases()).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await indexedDB.databases()).toEqual([]);
    expect(await firstValueFrom(stream<LoadState>((o) => next.engine.loadState(o as never)))).toMatchObject({ status: 'idle', loaded: 0 });
    await next.close();
    ({ token } = await signIn(server.url));
  });

  it('logout leaves nothing of the member in IndexedDB, a copy left behind by an earlier failed wipe neither', async () => {
    const leftover = (await openLocalCopy('T0OTHER01:U0OTHER01'))!;
    await leftover.saveAll({ sequence: 1, conversations: [], users: [], views: [], messages: {} });
    leftover.close();
    const page = await start();
    await page.engine.authStatus();
    await loaded(page.engine);
    await page.engine.logout();
    for (let i = 0; i < 100 && (await indexedDB.databases()).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await indexedDB.databases()).toEqual([]);
    await page.close();
    ({ token } = await signIn(server.url));
  });
});
