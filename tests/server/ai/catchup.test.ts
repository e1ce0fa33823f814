import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAUGHT_UP_MESSAGE, EXAMPLE_PROMPTS, SUGGESTION_CHIPS } from '../../../src/model/ai';
import { catchupGreeting, detectIntent, type CatchupIntent } from '../../../src/server/ai/catchupText';
import { catchupReplyLocally, suggestReply } from '../../../src/server/ai/local/catchup';
import type { CatchupConversation } from '../../../src/server/ai/types';
import { ALL_CONVERSATIONS, catchupContext, engineering, incidents, joDm, launchThread, miaDm, random, samDm } from '../../fixtures/catchup';

describe('detectIntent', () => {
  it.each<[string, CatchupIntent]>([
    // the six chips
    [SUGGESTION_CHIPS[0], 'replies'],
    [SUGGESTION_CHIPS[1], 'summarize_urgent'],
    [SUGGESTION_CHIPS[2], 'urgent'],
    [SUGGESTION_CHIPS[3], 'reply_first'],
    [SUGGESTION_CHIPS[4], 'blockers'],
    [SUGGESTION_CHIPS[5], 'clear_fyi'],
    // the eight prompts
    [EXAMPLE_PROMPTS[0], 'urgent'],
    [EXAMPLE_PROMPTS[1], 'reply_first'],
    [EXAMPLE_PROMPTS[2], 'summarize'],
    [EXAMPLE_PROMPTS[3], 'search'],
    [EXAMPLE_PROMPTS[4], 'incidents'],
    [EXAMPLE_PROMPTS[5], 'reviews'],
    [EXAMPLE_PROMPTS[6], 'deadlines'],
    [EXAMPLE_PROMPTS[7], 'dms'],
    // free phrasing
    ['anything on fire?', 'urgent'],
    ['what needs my attention', 'urgent'],
    ["who's waiting on me", 'reply_first'],
    ['Who needs an answer from me?', 'reply_first'],
    ['is anyone stuck?', 'blockers'],
    ['what is blocking the team', 'blockers'],
    ['mark the fyi stuff as read', 'clear_fyi'],
    ['What should I say to Mia?', 'replies'],
    ['draft replies for me', 'replies'],
    ['recap my DMs', 'dms'],
    ['give me an overview', 'summarize'],
    ['tl;dr of urgent stuff', 'summarize_urgent'],
    ['is prod down?', 'incidents'],
    ['any PRs for me?', 'reviews'],
    ['what is due by EOD', 'deadlines'],
    ['help', 'help'],
    ['thanks!', 'thanks'],
    ['Good morning', 'greeting'],
    ['pizza?', 'search'],
    // answers to a proposal
    ['yes', 'confirm'],
    ['Yes please!', 'confirm'],
    ['do it', 'confirm'],
    ['OK, go ahead', 'confirm'],
    ['no', 'decline'],
    ['Cancel.', 'decline'],
    ["don't", 'decline'],
    ['never mind', 'decline'],
    ['no, what is urgent?', 'decline'],
    ['yes but first tell me who is waiting on a reply from me', 'reply_first'],
    // word order counts: 'who … reply', 'clear … fyi', 'fyi … clear', 'draft … replies'
    ['reply to who?', 'search'],
    ['fyi: who cleared it?', 'search'],
    ['the FYIs, clear them', 'clear_fyi'],
    ['replies to draft', 'search'],
  ])('detectIntent(%j) is %j', (message, intent) => {
    expect(detectIntent(message)).toBe(intent);
  });

  it('does not depend on case, punctuation or spacing', () => {
    const phrases = [...SUGGESTION_CHIPS, ...EXAMPLE_PROMPTS, 'anything on fire?', 'yes', 'no', 'do it', 'cancel'];
    fc.assert(
      fc.property(
        fc.constantFrom(...phrases),
        fc.constantFrom('', '?', '!', '...', ' ?!', '.'),
        fc.constantFrom('', ' ', '  ', '\n'),
        fc.boolean(),
        (phrase, punctuation, space, upper) => {
          const variant = `${space}${upper ? phrase.toUpperCase() : phrase}${punctuation}${space}`.replace(/ /g, ` ${space}`);
          expect(detectIntent(variant)).toBe(detectIntent(phrase));
        },
      ),
    );
  });
});

describe('catchupGreeting', () => {
  it('gives the counts by category and the most pressing conversation', () => {
    expect(catchupGreeting(catchupContext())).toBe(
      'You have 9 unread conversations: 2 urgent, 3 that can wait, 3 FYI and 1 not sorted yet. ' +
        'The most pressing is #incidents: Checkout errors are spiking and Dana asks you to roll back (12 minutes ago). ' +
        "Ask me what's urgent, who to reply to first, or to clear your FYI messages.",
    );
  });

  it('quotes the newest message when the top conversation has no reason', () => {
    expect(catchupGreeting(catchupContext([joDm]))).toBe(
      'You have 1 unread conversation: 1 not sorted yet. The most pressing is Jo Park (DM), "Thanks for the help yesterday!" (20 minutes ago). ' +
        "Ask me what's urgent, who to reply to first, or to clear your FYI messages.",
    );
  });

  it("says you're all caught up with nothing unread", () => {
    expect(catchupGreeting(catchupContext([]))).toBe(CAUGHT_UP_MESSAGE);
  });
});

const reply = (message: string, conversations?: CatchupConversation[]) => catchupReplyLocally(catchupContext(conversations), message);

describe('catchupReplyLocally: the chips', () => {
  it('crafts suggested replies adapted to each simple message', () => {
    const out = reply(SUGGESTION_CHIPS[0]);
    expect(out.message).toBe(
      [
        'Suggested replies for 5 simple messages:',
        '• #incidents — Dana Reyes: "@Alex Kim can you roll back the 2.14 deploy?"',
        '   Reply: "Sure, I\'ll take care of it today."',
        '• Sam Lee (DM) — "Can you approve the release notes before 3pm?"',
        '   Reply: "Thanks, I\'ll take a look before 3pm."',
        '• Mia Chen (DM) — "Does Thursday at 2pm work for a quick sync?"',
        '   Reply: "That works for me. Send over an invite."',
        '• #engineering — Ravi Patel: "Could someone review PR 482 when they have time?"',
        '   Reply: "Thanks, I\'ll take a look today."',
        '• Jo Park (DM) — "Thanks for the help yesterday!"',
        '   Reply: "You\'re welcome, happy to help!"',
      ].join('\n'),
    );
    expect(out.conversationIds).toEqual(['C_INC', 'D_SAM', 'D_MIA', 'C_ENG', 'D_JO']);
    expect(out.proposal).toBeUndefined();
  });

  it('summarizes urgent conversations, one line each', () => {
    const out = reply(SUGGESTION_CHIPS[1]);
    expect(out.message).toBe(
      [
        '2 urgent conversations:',
        '• #incidents (3 unread): Checkout errors are spiking and Dana asks you to roll back. Dana Reyes: "@Alex Kim can you roll back the 2.14 deploy?"',
        '• Sam Lee (DM, 1 unread): Sam needs your approval before the 3pm release. "Can you approve the release notes before 3pm?"',
      ].join('\n'),
    );
    expect(out.conversationIds).toEqual(['C_INC', 'D_SAM']);
  });

  it("answers 'I have 5 minutes' with the top urgent items and where to start", () => {
    const out = reply(SUGGESTION_CHIPS[2]);
    expect(out.message).toBe(
      [
        '2 urgent conversations need you:',
        '• #incidents — Dana Reyes: "@Alex Kim can you roll back the 2.14 deploy?" (12 minutes ago)',
        '• Sam Lee (DM) — "Can you approve the release notes before 3pm?" (2 hours ago)',
        'Start with #incidents: Checkout errors are spiking and Dana asks you to roll back.',
      ].join('\n'),
    );
    expect(out.conversationIds).toEqual(['C_INC', 'D_SAM']);
  });

  it('ranks who to reply to first, with why; a thank-you does not wait on you', () => {
    const out = reply(SUGGESTION_CHIPS[3]);
    expect(out.message).toBe(
      [
        'Reply to these first:',
        '• Sam Lee (DM) — direct message, asks a question, marked urgent, waiting 2 hours: "Can you approve the release notes before 3pm?"',
        '• #incidents — mentions you, asks a question, marked urgent, waiting 12 minutes: Dana Reyes: "@Alex Kim can you roll back the 2.14 deploy?"',
        '• Mia Chen (DM) — direct message, asks a question, waiting 5 hours: "Does Thursday at 2pm work for a quick sync?"',
        '• #engineering — asks a question, waiting 3 hours: Ravi Patel: "Could someone review PR 482 when they have time?"',
        'Start with Sam Lee (DM).',
      ].join('\n'),
    );
    expect(out.conversationIds).toEqual(['D_SAM', 'C_INC', 'D_MIA', 'C_ENG']);
  });

  it('surfaces team blockers', () => {
    const out = reply(SUGGESTION_CHIPS[4]);
    expect(out.message).toBe('1 conversation with blockers:\n• #engineering — Ravi Patel: "I\'m blocked on the staging database credentials." (3 hours ago)');
    expect(out.conversationIds).toEqual(['C_ENG']);
  });

  it('proposes to clear FYI conversations and asks to confirm', () => {
    const out = reply(SUGGESTION_CHIPS[5]);
    expect(out.message).toBe("Mark 3 FYI conversations as read? That's #announcements, #design and #random. Say yes to confirm.");
    expect(out.proposal).toEqual({
      type: 'mark_read',
      conversationIds: ['C_ANN', 'C_DESIGN', 'C_RANDOM'],
      description: 'Mark 3 FYI conversations as read',
    });
    expect(out.conversationIds).toEqual(['C_ANN', 'C_DESIGN', 'C_RANDOM']);
  });
});

describe('catchupReplyLocally: the prompts', () => {
  it.each<[string, string, string[]]>([
    [
      EXAMPLE_PROMPTS[2],
      [
        "Here's what you missed in #engineering:",
        '• #engineering: 3 unread messages from Ravi Patel and Mia Chen.',
        '   Ravi Patel: "I\'m blocked on the staging database credentials."',
        '   Mia Chen: "The API migration is 80% done."',
        '   Ravi Patel: "Could someone review PR 482 when they have time?"',
      ].join('\n'),
      ['C_ENG'],
    ],
    [
      EXAMPLE_PROMPTS[3],
      "Here's what I found in your unread messages:\n" +
        '• Thread in #launch: Launch checklist — Dana Reyes: "The launch moves to Friday. Marketing needs the final copy by Wednesday." (1 day ago)',
      [launchThread.conversationId],
    ],
    [
      EXAMPLE_PROMPTS[4],
      '1 conversation about incidents:\n• #incidents — Dana Reyes: "@Alex Kim can you roll back the 2.14 deploy?" (12 minutes ago)',
      ['C_INC'],
    ],
    [
      EXAMPLE_PROMPTS[5],
      [
        '2 review requests in your unread messages:',
        '• Sam Lee (DM) — "Can you approve the release notes before 3pm?" (2 hours ago)',
        '• #engineering — Ravi Patel: "Could someone review PR 482 when they have time?" (3 hours ago)',
      ].join('\n'),
      ['D_SAM', 'C_ENG'],
    ],
    [
      EXAMPLE_PROMPTS[6],
      '1 conversation with deadlines:\n' +
        '• Thread in #launch: Launch checklist — Dana Reyes: "The launch moves to Friday. Marketing needs the final copy by Wednesday." (1 day ago)',
      [launchThread.conversationId],
    ],
    [
      EXAMPLE_PROMPTS[7],
      [
        '3 unread direct messages:',
        '• Sam Lee (DM, 1 unread) — "Can you approve the release notes before 3pm?" (2 hours ago)',
        '• Mia Chen (DM, 1 unread) — "Does Thursday at 2pm work for a quick sync?" (5 hours ago)',
        '• Jo Park (DM, 1 unread) — "Thanks for the help yesterday!" (20 minutes ago)',
      ].join('\n'),
      ['D_SAM', 'D_MIA', 'D_JO'],
    ],
    ['Summarize what I missed in #design-review', "There's nothing unread in #design-review.", []],
    ['what about pizza', '• #random — Leo Park: "Pizza is in the kitchen!" (30 minutes ago)', ['C_RANDOM']],
  ])('%j', (message, expected, ids) => {
    const out = reply(message);
    if (expected.startsWith('•')) expect(out.message).toContain(expected);
    else expect(out.message).toBe(expected);
    expect(out.conversationIds).toEqual(ids);
  });

  it('finds nothing, and says what it can do, for words no unread message has', () => {
    const out = reply('What about the quarterly budget?');
    expect(out.message).toMatch(/^I couldn't find that in your unread messages\. I can tell you what's urgent/);
    expect(out.conversationIds).toEqual([]);
  });
});

describe('catchupReplyLocally: other contexts', () => {
  it('without urgent conversations, offers what comes next', () => {
    const out = reply('What is urgent right now?', [engineering, miaDm, random]);
    expect(out.message).toBe(
      [
        'Nothing is urgent right now. Next up:',
        '• Mia Chen (DM) — "Does Thursday at 2pm work for a quick sync?" (5 hours ago)',
        '• #engineering — Ravi Patel: "Could someone review PR 482 when they have time?" (3 hours ago)',
        '• #random — Leo Park: "Pizza is in the kitchen!" (30 minutes ago)',
        'Start with Mia Chen (DM): Mia asks whether Thursday works for a sync.',
      ].join('\n'),
    );
  });

  it("keeps 'I have 5 minutes' to the top three", () => {
    const urgent = ALL_CONVERSATIONS.map((c, i) => ({ ...c, conversationId: `U${i}`, category: 'urgent' as const }));
    const out = reply("I have 5 minutes, what's important?", urgent);
    expect(out.message.split('\n')[0]).toBe('9 urgent conversations need you; the top 3:');
    expect(out.conversationIds).toHaveLength(3);
  });

  it.each([
    [SUGGESTION_CHIPS[0], "I didn't find simple messages that need a quick reply."],
    [SUGGESTION_CHIPS[1], 'Nothing is marked urgent. You have 1 unread conversation: 1 that can wait.'],
    [SUGGESTION_CHIPS[3], 'No one is waiting on a reply from you right now.'],
    [SUGGESTION_CHIPS[4], "I don't see any blockers in your unread messages."],
    [SUGGESTION_CHIPS[5], 'You have no unread FYI conversations to clear.'],
    [EXAMPLE_PROMPTS[4], 'No incidents in your unread messages.'],
    [EXAMPLE_PROMPTS[7], 'You have no unread direct messages.'],
  ])('says so when there is nothing for %j', (message, expected) => {
    const out = reply(message, [launchThread]);
    expect(out.message).toBe(expected);
    expect(out.proposal).toBeUndefined();
  });

  it("answers every topic with 'all caught up' when nothing is unread", () => {
    for (const message of [...SUGGESTION_CHIPS, ...EXAMPLE_PROMPTS, 'hello', 'pizza']) {
      const out = reply(message, []);
      expect(out.message).toBe(CAUGHT_UP_MESSAGE);
      expect(out.conversationIds).toEqual([]);
    }
  });

  it('lists at most 10 conversations', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ ...random, conversationId: `C${i}`, title: `#chan-${i}` }));
    expect(reply(SUGGESTION_CHIPS[5], many).conversationIds).toHaveLength(10);
    expect(reply(SUGGESTION_CHIPS[5], many).proposal?.conversationIds).toHaveLength(30);
  });
});

describe('catchupReplyLocally: a yes or a no reaches it only with nothing pending', () => {
  it('a yes: nothing is waiting for one, and nothing is proposed', () => {
    const out = reply('yes do it');
    expect(out.message).toMatch(/^There's nothing waiting for a yes right now\./);
    expect(out.proposal).toBeUndefined();
    expect(out.conversationIds).toEqual([]);
  });

  it('a no: OK, and what it can do', () => {
    const out = reply('no, cancel');
    expect(out.message).toMatch(/^OK\. I can tell you what's urgent/);
    expect(out.proposal).toBeUndefined();
  });
});

describe('suggestReply', () => {
  it.each([
    ['Thanks for the help yesterday!', "You're welcome, happy to help!"],
    ['Can you review my PR by Friday?', "Thanks, I'll take a look by Friday."],
    ['Are you free for a call tomorrow?', 'That works for me. Send over an invite.'],
    ['Any update on the migration?', "Still on it. I'll send an update by end of day."],
    ['@Alex Kim could you restart the worker before noon?', "Sure, I'll take care of it before noon."],
    ['Please send the invoice.', "Sure, I'll take care of it today."],
    ['Is that plan ok with you?', 'Yes, that works for me.'],
    ['Did the backup finish?', "Let me check and I'll confirm shortly."],
    ['Where are the slides?', 'Good question. Let me check and get back to you.'],
    ['The office is closed on Monday.', null],
    [`${'word '.repeat(31)}?`, null],
  ])('suggestReply(%j) is %j', (text, expected) => {
    expect(suggestReply(text, 'Alex Kim')).toBe(expected);
  });
});

describe('catchupReplyLocally properties', () => {
  const contexts = fc.subarray(ALL_CONVERSATIONS).map((convs) => catchupContext(convs));
  const messages = fc.oneof(fc.string(), fc.constantFrom(...SUGGESTION_CHIPS, ...EXAMPLE_PROMPTS, 'yes', 'no', 'anything on fire?'));

  it('never throws; replies name at most 10 known conversations; only FYI clearing proposes', () => {
    fc.assert(
      fc.property(contexts, messages, (context, message) => {
        const out = catchupReplyLocally(context, message);
        const known = new Set(context.conversations.map((c) => c.conversationId));
        expect(out.message.trim()).not.toBe('');
        expect(out.message).not.toMatch(/\|/); // no markdown tables
        expect(out.conversationIds.length).toBeLessThanOrEqual(10);
        for (const id of out.conversationIds) expect(known.has(id)).toBe(true);
        expect(out.tokensUsed).toBeGreaterThan(0);
        const intent = detectIntent(message);
        if (out.proposal) expect(intent).toBe('clear_fyi');
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the context untouched', () => {
    const context = catchupContext(ALL_CONVERSATIONS);
    const before = structuredClone(context);
    for (const message of [...SUGGESTION_CHIPS, ...EXAMPLE_PROMPTS, 'yes']) catchupReplyLocally(context, message);
    expect(context).toEqual(before);
    expect([incidents, samDm].every((c) => context.conversations.includes(c))).toBe(true);
  });
});
