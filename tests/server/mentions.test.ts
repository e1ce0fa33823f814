/**
 * The names a page gets for a set of messages' mentions (server/mentions.ts), as an attacker
 * would try them: only the member's own conversations or public names, only http(s) images,
 * aliases followed once, and a 40,000-character text of would-be mentions read with a cap.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mentionsOf } from '../../src/server/mentions';
import type { SiftStore } from '../../src/server/store/store';
import { openTestStore } from './testStore';
import type { Message } from '../../src/model/types';

const WS = 'T1';
let store: SiftStore;
const message = (text: string, extra: Partial<Message> = {}): Message => ({ ts: '1700000000.000100', channel: 'C1', text, ...extra });

beforeEach(async () => {
  store = await openTestStore();
  await store.upsertWorkspace({ id: WS, name: 'W', source: 'slack' });
  await store.importBatch(WS, {
    users: [],
    conversations: [
      { id: 'C1', name: 'general', type: 'channel', is_private: false, member_ids: ['UA', 'UB'] },
      { id: 'G2', name: 'b-secret-plans', type: 'channel', is_private: true, member_ids: ['UB'] },
    ],
  });
  await store.saveSourceNames(WS, 'channel', { C9: 'incident-review' });
  await store.saveSourceNames(WS, 'usergroup', { S1: 'oncall' });
  await store.saveSourceNames(WS, 'emoji', {
    okay_custom: 'https://emoji.example/ok.png',
    evil: 'javascript:alert(1)',
    data: 'data:image/svg+xml,<svg onload=alert(1)>',
    shipit_custom: 'alias:okay_custom',
    loop: 'alias:loop',
    chain: 'alias:shipit_custom',
  });
});
afterEach(async () => store.close());

describe('mentionsOf', () => {
  it('names the member’s own channels and public ones, never another member’s private channel', async () => {
    const mentions = await mentionsOf(store, WS, 'UA', [message('see <#C1>, <#C9|> and <#G2>')]);
    expect(mentions.channels).toEqual({ C1: 'general', C9: 'incident-review' });
    // The member who is in it gets its name.
    expect((await mentionsOf(store, WS, 'UB', [message('see <#G2>')])).channels).toEqual({ G2: 'b-secret-plans' });
  });

  it('answers only http(s) emoji images, following an alias once (no loops, no chains)', async () => {
    const mentions = await mentionsOf(store, WS, 'UA', [
      message(':okay_custom: :evil: :data: :shipit_custom: :loop: :chain: :unknown: :tada:', {
        reactions: [
          { name: 'okay_custom::skin-tone-2', count: 1, users: ['UA'] },
          { name: 'evil', count: 1, users: [] },
        ],
      }),
    ]);
    expect(mentions.emoji).toEqual({ okay_custom: 'https://emoji.example/ok.png', shipit_custom: 'https://emoji.example/ok.png' });
    expect((await mentionsOf(store, WS, 'UA', [message('<!subteam^S1> <!subteam^S404|@ghost>')])).usergroups).toEqual({ S1: 'oncall' });
  });

  it('looks up only what carries no name of its own: a named channel mention and a standard emoji are left alone', async () => {
    await store.saveSourceNames(WS, 'channel', { C7: 'renamed-since' });
    await store.saveSourceNames(WS, 'emoji', { tada: 'https://emoji.example/not-the-real-tada.png' });
    const mentions = await mentionsOf(store, WS, 'UA', [message('<#C7|old-name> :tada:')]);
    expect(mentions).toEqual({});
  });

  it('reads a hostile 40,000-character text and thousands of would-be mentions, looking up at most 500', async () => {
    const text = `${'<#C1'.repeat(5_000)}${':x'.repeat(5_000)}<#C1>`.slice(0, 40_000);
    const many = Array.from({ length: 2_000 }, (_, i) => `<#C${String(i).padStart(6, '0')}>`).join(' ');
    const mentions = await mentionsOf(store, WS, 'UA', [message(text), message(many)]);
    // The first 500 distinct ids are looked up, no more; only the member's own channel is named.
    expect(mentions.channels).toEqual({ C1: 'general' });
  });
});
