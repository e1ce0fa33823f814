/**
 * Actions taken offline (issue 14 §3, §5), over a real MessageChannel against the real server, the
 * outbox kept in an in-memory IndexedDB (fake-indexeddb): a mark read and a reply taken while the
 * server cannot be reached stay applied and wait; the page is closed; a later start finds them and,
 * once connected, sends them in order, each once (the reply's client message id makes a retry safe);
 * an action the server refuses is rolled back and reported.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, ConversationSummary } from '../../src/model/types';
import type { Refusal } from '../../src/worker/engine/outbox';
import type { ConversationDetail } from '../../src/worker/engine';
import { api, signIn, startTestServer, type TestServer } from '../server/helpers';
import { loaded, startPageEngine, stream, until } from './pageEngine';

let server: TestServer;
let token: string;
const REPLY = 'Written on the train, sent when back online';

beforeAll(async () => {
  globalThis.indexedDB = new IDBFactory();
  server = await startTestServer();
  ({ token } = await signIn(server.url));
});
afterAll(() => server.close());

const call = () => api(server.url, token);
const conversations = async () => (await call()<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations;
const messagesOf = async (id: string) =>
  (await call()<{ conversation: Conversation }>(`/api/conversations/${encodeURIComponent(id)}/threads`)).body.conversation.messages;

describe('the outbox', () => {
  it('keeps a mark read and a reply taken offline, across a closed page, and sends each once when back', async () => {
    const unread = (await conversations()).find((c) => c.type === 'channel' && c.unread_count_display > 0)!;
    const page = await startPageEngine(server.url, () => token);
    await page.engine.authStatus();
    await loaded(page.engine);

    // The conversation is open (as the page has it) when the connection drops.
    const details: ConversationDetail[] = [];
    const watching = stream<ConversationDetail>((o) => page.engine.conversation(unread.id, o as never)).subscribe((d) => details.push(d));
    await until(() => details.some((d) => d.status === 'loaded'), 'the conversation to open');
    // The connection drops: every request now fails as a network error does.
    page.offline = true;
    await page.engine.liveCommand('disconnect');
    expect(await page.engine.markRead(unread.id)).toBe(true);
    expect(await page.engine.send(unread.id, REPLY)).toEqual({ ok: true, queued: true });
    // Shown in its conversation as waiting in the outbox.
    await until(() => details.some((d) => d.messages.some((m) => m.text === REPLY && m.pending && m.queued)), 'the reply shown waiting');
    watching.unsubscribe();
    // Applied at once, and waiting.
    expect((await page.engine.facts(unread.id))?.unread).toBe(0);
    expect(await firstValueFrom(stream<number>((o) => page.engine.outboxSize(o as never)).pipe(filter((n) => n === 2)))).toBe(2);
    await page.close();
    // Nothing reached the server.
    expect((await messagesOf(unread.id)).filter((m) => m.text === REPLY)).toHaveLength(0);

    // Reopened online: the outbox is found again and drained once connected.
    const again = await startPageEngine(server.url, () => token);
    await again.engine.authStatus();
    await until(async () => (await messagesOf(unread.id)).some((m) => m.text === REPLY), 'the reply to arrive');
    await until(async () => (await conversations()).find((c) => c.id === unread.id)?.unread_count_display === 0, 'the mark read to arrive');
    await until(async () => (await firstValueFrom(stream<number>((o) => again.engine.outboxSize(o as never)))) === 0, 'the outbox to empty');
    expect((await messagesOf(unread.id)).filter((m) => m.text === REPLY)).toHaveLength(1);
    await again.close();
  });

  it('a reply written while the saved outbox is still being read waits behind it, and both are kept and sent in order', async () => {
    const channel = (await conversations()).find((c) => c.type === 'channel')!;
    const first = 'Queued before the page closed';
    const second = 'Written the moment the page opened again';
    const page = await startPageEngine(server.url, () => token);
    await page.engine.authStatus();
    await loaded(page.engine);
    page.offline = true;
    await page.engine.liveCommand('disconnect');
    expect(await page.engine.send(channel.id, first)).toEqual({ ok: true, queued: true });
    await page.close();

    const again = await startPageEngine(server.url, () => token);
    await again.engine.authStatus();
    // At once: the saved outbox is still being read; the new reply must not overtake it.
    expect(await again.engine.send(channel.id, second)).toEqual({ ok: true, queued: true });
    await until(async () => (await messagesOf(channel.id)).some((m) => m.text === second), 'both replies to arrive');
    const texts = (await messagesOf(channel.id)).map((m) => m.text).filter((t) => t === first || t === second);
    expect(texts).toEqual([first, second]);
    await again.close();
  });

  it('an action the server refuses when it is finally sent is rolled back and reported', async () => {
    const page = await startPageEngine(server.url, () => token);
    await page.engine.authStatus();
    await loaded(page.engine);
    const refusals: Refusal[] = [];
    const sub = stream<Refusal>((o) => page.engine.outboxRefused(o as never)).subscribe((r) => refusals.push(r));
    page.offline = true;
    await page.engine.liveCommand('disconnect');
    const target = (await conversations()).find((c) => c.type === 'channel')!;
    // 40,001 characters: the server's validation refuses it (SPEC's limit is 40,000).
    expect(await page.engine.send(target.id, 'x'.repeat(40_001))).toEqual({ ok: true, queued: true });
    page.offline = false;
    await page.engine.liveCommand('connect');
    await until(() => refusals.length > 0, 'the refusal');
    expect(refusals[0]).toMatchObject({ kind: 'send', conversationId: target.id });
    expect(refusals[0]!.error).toMatch(/validation/i);
    expect(await firstValueFrom(stream<number>((o) => page.engine.outboxSize(o as never)))).toBe(0);
    sub.unsubscribe();
    await page.close();
  });
});
