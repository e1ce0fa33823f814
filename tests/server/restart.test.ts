/** Durability: the event log and everything a member made survive a restart; sequences are never reused. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationSummary, MessageUpdateData } from '../../src/model/types';
import { api, openStream, signIn, startTestServer } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'sift-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a restart', () => {
  it('replays what was missed from the durable log, keeps sessions and sends, and never reuses a sequence', async () => {
    const file = join(dir, 'sift.db');
    const first = await startTestServer({ file });
    const { token } = await signIn(first.url);
    let call = api(first.url, token);
    const channel = (await call<{ data: { conversations: ConversationSummary[] } }>('/api/conversations/data')).body.data.conversations.find(
      (c) => c.type === 'channel',
    )!;
    const seen = (await call('/api/sse/stats')).body.currentSequence as number;
    const sent: string[] = [];
    for (const text of ['before restart 1', 'before restart 2']) {
      const res = await call('/api/messages/send', { body: { channel: channel.id, text } });
      expect(res.status).toBe(200);
      sent.push(res.body.ts);
    }
    await first.close();

    const second = await startTestServer({ file });
    call = api(second.url, token);
    // The session, the messages and the log are all still there.
    expect((await call('/api/auth/status')).body.authenticated).toBe(true);
    const messages = (await call(`/api/conversations/${channel.id}/threads`)).body.conversation.messages.map((m: { ts: string }) => m.ts);
    expect(messages).toEqual(expect.arrayContaining(sent));
    const stream = await openStream(second.url, token, seen);
    const events = await stream.until((e) => e.some((x) => x.type === 'replay_complete'));
    const replayed = events.filter((e) => e.isReplay);
    expect(replayed.map((e) => (e.data as MessageUpdateData).message?.text)).toEqual(['before restart 1', 'before restart 2']);
    expect(replayed.map((e) => e.sequence)).toEqual([seen + 1, seen + 2]);

    const after = await call('/api/messages/send', { body: { channel: channel.id, text: 'after restart' } });
    expect(after.status).toBe(200);
    const live = await stream.until((e) => e.some((x) => (x.data as MessageUpdateData)?.message?.text === 'after restart'));
    expect(live.find((x) => (x.data as MessageUpdateData)?.message?.text === 'after restart')!.sequence).toBe(seen + 3);
    stream.close();
    await second.close();
  });
});
