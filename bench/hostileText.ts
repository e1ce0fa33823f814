/**
 * Bench (DESIGN §9, "any regex over user text, 40,000 characters: linear"): every reader of
 * Slack text, fed hostile inputs of 10,000 and 40,000 characters. Linear code takes about 4× as
 * long at 40,000 as at 10,000; quadratic code about 16×. Reported: the time at 40,000 and the
 * ratio, per reader, and the slowest.
 *   - tokenize (mrkdwn): unclosed tags, markers, emoji colons and quotes;
 *   - plainText: nested-looking tags;
 *   - derivedText and renderContent: a message of thousands of blocks and attachment fields;
 *   - referencedBy (the Slack source's mention scan): thousands of would-be mentions;
 *   - the local classifier's tokens: one long message.
 */
import { tokenize } from '../src/model/mrkdwn';
import { plainText } from '../src/model/text';
import { derivedText } from '../src/model/slackText';
import { renderContent } from '../src/model/slackContent';
import { referencedBy } from '../src/server/sources/slack/names';
import { classifyLocally } from '../src/server/ai/local/classify';
import type { Message } from '../src/model/types';

export interface HostileResult {
  name: string;
  ms40k: number;
  ratio: number;
}

const names = { user: () => undefined };

/** Hostile text of `n` characters built from a repeated piece. */
const fill = (piece: string, n: number) => piece.repeat(Math.ceil(n / piece.length)).slice(0, n);

/** A message whose blocks and attachment fields add up to about `n` characters. */
function bigMessage(n: number): Message {
  const count = Math.max(1, Math.floor(n / 40));
  return {
    ts: '1700000000.000100',
    channel: 'C1',
    text: '',
    blocks: Array.from({ length: count }, (_, i) => ({ type: 'section', text: { type: 'mrkdwn', text: `*field ${i}* <@U${i}> :x: <https://x` } })),
    attachments: [{ title: '<'.repeat(Math.floor(n / 4)), fields: Array.from({ length: count }, () => ({ title: '*', value: '_<#' })) }],
  };
}

const readers: Array<{ name: string; run: (n: number) => () => unknown }> = [
  { name: 'tokenize: unclosed tags and markers', run: (n) => { const t = fill('<a *b _c ~d `e :f ', n); return () => tokenize(t, names); } },
  { name: 'tokenize: quote lines and pre fences', run: (n) => { const t = fill('> ```\n>>> `', n); return () => tokenize(t, names); } },
  { name: 'plainText: would-be tags', run: (n) => { const t = fill('<<@U1|<#C1|<!here', n); return () => plainText(t, names); } },
  { name: 'derivedText: thousands of blocks and fields', run: (n) => { const m = bigMessage(n); return () => derivedText(m); } },
  { name: 'renderContent: thousands of blocks and fields', run: (n) => { const m = bigMessage(n); return () => renderContent(m, names); } },
  {
    name: 'referencedBy: would-be mentions',
    run: (n) => {
      const m = { ts: '1', text: fill('<@U1234<#C99|<!subteam^', n) };
      return () => referencedBy([m], (x) => x.text ?? '');
    },
  },
  {
    name: 'local classifier: one long message',
    run: (n) => {
      const text = fill('can you urgently fix the outage today :fire: @here ', n);
      const input = { conversationId: 'C1', type: 'channel' as const, name: 'general', isPrivate: false, memberId: 'UME', memberName: 'Sam', unreadCount: 1, messages: [{ ts: '1', user: 'U2', author: 'Kim', isBot: false, text, mentionsMember: false }] };
      return () => classifyLocally(input, []);
    },
  },
];

/** Median of `rounds` timings of `fn`, in ms. */
function time(fn: () => unknown, rounds = 7): number {
  fn();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(rounds / 2)]!;
}

export function benchHostileText(): HostileResult[] {
  return readers.map(({ name, run }) => {
    const small = time(run(10_000));
    const large = time(run(40_000));
    return { name, ms40k: large, ratio: large / Math.max(small, 1e-3) };
  });
}
