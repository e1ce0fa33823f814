/** Slack mode's storage: sync batches are upserts (nothing stored twice), tokens are encrypted, states are single-use, logs hold no token. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestStore } from '../testStore';
import { TokenCipher } from '../../../src/server/sources/slack/tokens';
import { jsonLogger } from '../../../src/server/log';
import { slackConfigFromEnv } from '../../../src/server/sources/slack/config';
import type { SourceBatch } from '../../../src/server/store/types';

const WS = 'T1';
const user = (id: string) => ({ id, name: id.toLowerCase(), real_name: id, display_name: id });

function batch(): SourceBatch {
  return {
    users: [user('UME'), user('UYOU')],
    conversations: [{ id: 'C1', name: 'general', type: 'channel', is_private: false, member_ids: ['UME', 'UYOU'] }],
    messages: [
      { conversation_id: 'C1', ts: '1700000001.000100', user: 'UYOU', text: 'one' },
      { conversation_id: 'C1', ts: '1700000002.000100', user: 'UYOU', text: 'two' },
      { conversation_id: 'C1', ts: '1700000003.000100', user: 'UYOU', text: 'three' },
    ],
    readMarks: [{ conversation_id: 'C1', user_id: 'UME', last_read: '1700000001.000100' }],
  };
}

describe('applySourceBatch', () => {
  it('stores a batch once however often it is applied, with unread counts from the read mark', async () => {
    const store = await openTestStore();
    await store.upsertWorkspace({ id: WS, name: 'W', source: 'slack' });
    const first = await store.applySourceBatch(WS, batch(), 1);
    expect(first.result.inserted).toHaveLength(3);
    const again = await store.applySourceBatch(WS, batch(), 2);
    expect(again.result.inserted).toHaveLength(0);
    expect(await store.countMessages(WS)).toBe(3);
    const c = await store.getConversation(WS, 'UME', 'C1');
    expect(c).toMatchObject({ message_count: 3, unread_count: 2, last_read: '1700000001.000100', latest_message: { ts: '1700000003.000100', text: 'three' } });
    expect(await store.searchMessages(WS, 'UME', { words: ['two'] }, 10)).toHaveLength(1);
    await store.close();
  });

  it.each([
    ['channel_topic', '<@UYOU> set the channel topic: Quiet please'],
    ['pinned_item', '<@UYOU> pinned a message to this channel.'],
    ['tombstone', 'This message was deleted.'],
  ])('a %s message is no news: never unread, never the preview, never a search hit', async (subtype, text) => {
    const store = await openTestStore();
    await store.upsertWorkspace({ id: WS, name: 'W', source: 'slack' });
    const b = batch();
    b.messages!.push({ conversation_id: 'C1', ts: '1700000004.000100', user: 'UYOU', text, subtype });
    await store.applySourceBatch(WS, b, 1);
    expect(await store.getConversation(WS, 'UME', 'C1')).toMatchObject({
      unread_count: 2,
      // The activity moves; the preview stays on the newest message worth reading.
      latest_activity: 1700000004,
      latest_message: { ts: '1700000004.000100', text: 'three', user: 'UYOU' },
    });
    expect(await store.searchMessages(WS, 'UME', { words: [text.split(' ').at(-1)!.replace(/\W/g, '')] }, 10)).toEqual([]);
    // A bot's post (subtype bot_message) is news: unread, the preview, and searchable through its derived text.
    await store.applySourceBatch(
      WS,
      {
        messages: [
          { conversation_id: 'C1', ts: '1700000005.000100', user: 'B1', subtype: 'bot_message', text: '', resolved_text: 'Deploy finished: quasar build' },
        ],
      },
      2,
    );
    expect(await store.getConversation(WS, 'UME', 'C1')).toMatchObject({ unread_count: 3, latest_message: { text: 'Deploy finished: quasar build' } });
    expect(await store.searchMessages(WS, 'UME', { words: ['quasar'] }, 10)).toHaveLength(1);
    await store.close();
  });

  it('applies an edit, a delete, a join and a leave, and answers what changed', async () => {
    const store = await openTestStore();
    await store.upsertWorkspace({ id: WS, name: 'W', source: 'slack' });
    await store.applySourceBatch(WS, batch(), 1);
    const written = await store.applySourceBatch(
      WS,
      {
        conversations: [{ id: 'C1', name: 'general', type: 'channel', is_private: false, member_ids: ['UME', 'UNEW'] }],
        messages: [{ conversation_id: 'C1', ts: '1700000003.000100', user: 'UYOU', text: 'three (edited)' }],
        deletedMessages: [{ conversation_id: 'C1', ts: '1700000002.000100' }],
      },
      2,
      (result) => [{ userId: 'UME', type: 'conversation_update', data: { n: result.touched.size } }],
    );
    expect(written.result.edited.map((m) => m.text)).toEqual(['three (edited)']);
    expect(written.result.deleted).toEqual([{ conversation_id: 'C1', ts: '1700000002.000100' }]);
    expect(written.result.joined).toEqual([{ conversation_id: 'C1', user_id: 'UNEW' }]);
    expect(written.result.left).toEqual([{ conversation_id: 'C1', user_id: 'UYOU' }]);
    expect(written.events).toHaveLength(1);
    const c = await store.getConversation(WS, 'UME', 'C1');
    expect(c).toMatchObject({ message_count: 2, unread_count: 1, latest_message: { text: 'three (edited)' } });
    expect(await store.searchMessages(WS, 'UME', { words: ['edited'] }, 10)).toHaveLength(1);
    expect(await store.searchMessages(WS, 'UME', { words: ['two'] }, 10)).toHaveLength(0);
    expect(await store.getConversation(WS, 'UYOU', 'C1')).toBeNull();
    await store.close();
  });

  it('keeps a message sent with an explicit ts once when its echo came first', async () => {
    const store = await openTestStore();
    await store.upsertWorkspace({ id: WS, name: 'W', source: 'slack' });
    await store.applySourceBatch(WS, batch(), 1);
    await store.applySourceBatch(WS, { messages: [{ conversation_id: 'C1', ts: '1700000009.000100', user: 'UME', text: 'mine' }] }, 2);
    const written = await store.insertMessage({ workspaceId: WS, conversationId: 'C1', user: 'UME', text: 'mine', at: 3, ts: '1700000009.000100' }, () => [
      { userId: 'UME', type: 'message_update', data: {} },
    ]);
    expect(written.events).toEqual([]);
    expect(written.result.message.ts).toBe('1700000009.000100');
    expect(await store.countMessages(WS)).toBe(4);
    await store.close();
  });
});

describe('Slack credentials and sign-in states', () => {
  it('encrypts tokens (AES-256-GCM) and refuses a tampered value', () => {
    const cipher = TokenCipher.fromSecret('a long enough secret');
    const row = { workspaceId: WS, userId: 'UME' };
    const stored = cipher.encrypt('xoxp-1-secret-token', row);
    expect(stored).not.toContain('xoxp');
    expect(cipher.decrypt(stored, row)).toBe('xoxp-1-secret-token');
    expect(() => cipher.decrypt(stored.slice(0, -2) + 'AA', row)).toThrow();
    expect(() => TokenCipher.fromSecret('another secret!').decrypt(stored, row)).toThrow();
  });

  it('generates the key file once, mode 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sift-key-'));
    const a = TokenCipher.fromKeyFile(dir);
    const key = readFileSync(join(dir, 'secret.key'), 'utf8');
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const b = TokenCipher.fromKeyFile(dir);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe(key);
    expect(b.keyId).toBe(a.keyId);
    expect(b.decrypt(a.encrypt('xoxp-x', { workspaceId: WS, userId: 'UME' }), { workspaceId: WS, userId: 'UME' })).toBe('xoxp-x');
  });

  it('takes an OAuth state once', async () => {
    const store = await openTestStore();
    await store.saveOAuthState('s1', 'b1', Date.now() + 1000);
    expect(await store.takeOAuthState('s1')).toMatchObject({ browserHash: 'b1' });
    expect(await store.takeOAuthState('s1')).toBeNull();
    await store.close();
  });

  it('records an event id once', async () => {
    const store = await openTestStore();
    expect(await store.recordSourceEvent(WS, 'Ev1', 100)).toBe(true);
    expect(await store.recordSourceEvent(WS, 'Ev1', 101)).toBe(false);
    expect(await store.sourceEventSeen(WS, 'Ev1')).toBe(true);
    expect(await store.pruneSourceEvents(200)).toBe(1);
    expect(await store.sourceEventSeen(WS, 'Ev1')).toBe(false);
    await store.close();
  });
});

describe('configuration and logs', () => {
  it('is demo mode without Slack credentials and refuses half of them', () => {
    expect(slackConfigFromEnv({})).toBeNull();
    expect(() => slackConfigFromEnv({ SLACK_CLIENT_ID: 'x' })).toThrow(/both SLACK_CLIENT_ID and SLACK_CLIENT_SECRET/);
    expect(() => slackConfigFromEnv({ SLACK_CLIENT_ID: 'x', SLACK_CLIENT_SECRET: 'y', SLACK_APP_TOKEN: 'xoxb-1' })).toThrow(/xapp/);
    expect(slackConfigFromEnv({ SLACK_CLIENT_ID: 'x', SLACK_CLIENT_SECRET: 'y', SLACK_API_URL: 'http://127.0.0.1:9/api' })).toMatchObject({
      apiUrl: 'http://127.0.0.1:9/api/',
      pollSeconds: 30,
    });
  });

  it('never writes a Slack token into a log line', () => {
    const lines: string[] = [];
    const logger = jsonLogger((line) => lines.push(line), 'debug');
    logger.log('warn', 'failed with xoxp-123-456-abcdef', {
      error: 'An API error: token xoxe.xoxp-1-abc and xapp-1-A1-2-zz',
      nested: { note: 'refresh xoxe-1-qwe' },
    });
    expect(lines.join('\n')).not.toMatch(/xox|xapp/);
  });
});
