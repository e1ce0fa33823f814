/** What the AI reads of a message: names resolved, the member's mentions, and who is a bot. */
import { describe, expect, it } from 'vitest';
import { AiDirectory } from '../../../src/server/ai/inputs';
import { openTestStore } from '../testStore';

async function directory() {
  const store = await openTestStore();
  await store.upsertWorkspace({ id: 'T1', name: 'Team', domain: 'team', source: 'slack' });
  await store.importBatch('T1', {
    users: [
      { id: 'U1', name: 'dana', real_name: 'Dana Reyes', display_name: 'Dana' },
      { id: 'UBOT', name: 'deploybot', real_name: 'Deploy Bot', display_name: '', is_bot: true },
      { id: 'USLACKBOT', name: 'slackbot', real_name: 'Slackbot', display_name: 'Slackbot', is_bot: false },
    ],
  });
  return new AiDirectory(store, 'T1').load();
}

describe('AiDirectory.aiMessage', () => {
  it.each([
    [
      'a person',
      { ts: '1.0', user: 'U1', text: 'Can you look, <@ME>?', channel: 'C1' },
      { author: 'Dana Reyes', isBot: false, mentionsMember: true, text: 'Can you look, @ME?' },
    ],
    ['a bot user', { ts: '1.0', user: 'UBOT', text: 'Deployed v2', channel: 'C1' }, { author: 'Deploy Bot', isBot: true, mentionsMember: false }],
    ['a bot_message', { ts: '1.0', text: 'Build passed', channel: 'C1', subtype: 'bot_message' as const }, { isBot: true }],
    [
      'Slackbot (is_bot false in Slack)',
      { ts: '1.0', user: 'USLACKBOT', text: 'Reminder: fill in the survey', channel: 'C1' },
      { author: 'Slackbot', isBot: true },
    ],
  ])('%s', async (_name, message, expected) => {
    expect((await directory()).aiMessage(message, 'ME')).toMatchObject(expected);
  });
});
