/**
 * The open conversation (SPEC §2.6, §4.4, §4.6, §8 send failure) on happy-dom, fed by a
 * stand-in engine: the test pushes ConversationDetail values as the engine's stream would.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TestRouter } from './router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary, Message, UserData } from '../../src/model/types';
import { ConversationPane } from '../../src/ui/components/ConversationPane';
import type { ConversationDetail } from '../../src/worker/engine';
import { CHANNEL_ID, USER_ALICE, USER_ME, slackTs } from '../fixtures/events';
import { createFakeEngine, summary } from './fakeEngine';

/** Noon, local time: every message below falls on a known local day and clock time whatever the time zone. */
const NOW = new Date(2026, 10, 20, 12, 0, 0).getTime();
const MIN = 60_000;
const at = (ms: number) => slackTs(ms);

const USER_BOB: UserData = { id: 'U_BOB', name: 'bob', real_name: 'Bob Builder', display_name: 'bob' };

function message(over: Partial<Message> & { ts: string; text: string }): Message {
  return { channel: CHANNEL_ID, user: USER_ALICE.id, ...over };
}

const OLDER = message({ ts: at(new Date(2026, 10, 17, 16, 30).getTime()), text: 'Kick-off notes are up' });
const YESTERDAY = message({ ts: at(new Date(2026, 10, 19, 9, 15).getTime()), text: 'Reminder: retro tomorrow', user: USER_BOB.id });
const M1 = message({ ts: at(NOW - 60 * MIN), text: 'Morning all, the deploy is scheduled for noon' });
const M2 = message({ ts: at(NOW - 30 * MIN), text: 'Deploy checklist is in the doc' });
const JOIN = message({ ts: at(NOW - 25 * MIN), text: '<@U_BOB> has joined the channel', user: USER_BOB.id, subtype: 'channel_join' });
const M3 = message({ ts: at(NOW - 20 * MIN), text: 'I will run the deploy', user: USER_ME.id });
const M4 = message({ ts: at(NOW - 10 * MIN), text: 'Deploy done, all green' });
const M5 = message({ ts: at(NOW - 5 * MIN), text: 'Thanks everyone!', user: USER_BOB.id });
const MESSAGES = [OLDER, YESTERDAY, M1, M2, JOIN, M3, M4, M5];

/** Read up to M2 (inclusive): M3 (mine), M4 and M5 are newer. */
const GENERAL: ConversationSummary = summary({
  id: CHANNEL_ID,
  name: 'general',
  member_ids: [USER_ME.id, USER_ALICE.id, USER_BOB.id],
  unread_count: 2,
  unread_count_display: 2,
  last_read: M2.ts,
  latest_activity: Math.floor((NOW - 5 * MIN) / 1000),
});

const MEMBERS = { [USER_ME.id]: USER_ME, [USER_ALICE.id]: USER_ALICE, [USER_BOB.id]: USER_BOB };

function loaded(over: Partial<ConversationSummary> = {}, messages: Message[] = MESSAGES): ConversationDetail {
  return {
    id: CHANNEL_ID,
    status: 'loaded',
    conversation: { ...GENERAL, ...over },
    participants: Object.values(MEMBERS),
    members: MEMBERS,
    me: USER_ME.id,
    messages,
  };
}

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

async function renderPane(detail?: ConversationDetail, flags?: Record<string, boolean>) {
  const fake = createFakeEngine({ conversations: [GENERAL], users: Object.values(MEMBERS), me: USER_ME.id, flags });
  const stream = fake.conversation(CHANNEL_ID);
  const onClose = vi.fn();
  const events = userEvent.setup();
  const { unmount } = render(
    <TestRouter>
      <ConversationPane id={CHANNEL_ID} onClose={onClose} now={NOW} />
    </TestRouter>,
  );
  await settle();
  if (detail) await act(async () => stream.next(detail));
  const push = (next: ConversationDetail) => act(async () => stream.next(next));
  return { fake, stream, push, onClose, events, unmount };
}

const log = () => screen.getByRole('log');
/** The message that shows this text. */
const messageWith = (text: string) => within(log()).getByText(text).closest('article')!;
const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const before = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

beforeEach(() => {
  localStorage.clear();
});

describe('ConversationPane loading (SPEC §2.6)', () => {
  it("says 'Loading...' until the messages arrive", async () => {
    const { push } = await renderPane({ id: CHANNEL_ID, status: 'loading', messages: [] });
    expect(within(log()).getByText('Loading...')).toBeTruthy();
    expect(within(log()).queryAllByRole('article')).toHaveLength(0);

    await push(loaded());
    expect(within(log()).queryByText('Loading...')).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'general' })).toBeTruthy();
    expect(within(log()).getAllByRole('article')).toHaveLength(7);
  });

  it('shows the error the engine reports', async () => {
    await renderPane({ id: CHANNEL_ID, status: 'error', messages: [], error: { isNetworkError: false, status: 500, message: 'Conversation unavailable' } });
    expect(within(log()).getByText('Conversation unavailable')).toBeTruthy();
    expect(within(log()).queryByText('Loading...')).toBeNull();
  });

  it('subscribes to the open conversation and lets it go on unmount, releasing its hold in the list', async () => {
    const { fake, stream, unmount } = await renderPane(loaded());
    expect(stream.subscribers).toBe(1);
    expect(screen.getByRole('region', { name: 'general' })).toBeTruthy();
    expect(fake.api.release).not.toHaveBeenCalled();
    unmount();
    await settle();
    expect(stream.subscribers).toBe(0);
    expect(stream.released).toBe(1);
    expect(fake.api.release).toHaveBeenCalledWith(CHANNEL_ID);
  });
});

describe('ConversationPane messages (SPEC §2.6)', () => {
  it('shows each message with its author and time', async () => {
    await renderPane(loaded());
    const cases = [
      [M4, 'Alice Adams', '11:50 AM'],
      [M3, 'Morgan Example', '11:40 AM'],
      [M1, 'Alice Adams', '11:00 AM'],
      [YESTERDAY, 'Bob Builder', 'Yesterday at 9:15 AM'],
      [OLDER, 'Alice Adams', 'Nov 17, 4:30 PM'],
    ] as const;
    for (const [m, author, time] of cases) {
      const article = messageWith(m.text);
      expect(within(article).getByText(author)).toBeTruthy();
      expect(within(article).getByText(time).tagName).toBe('TIME');
    }
    // In order, oldest first.
    expect(before(messageWith(OLDER.text), messageWith(M1.text))).toBe(true);
    expect(before(messageWith(M1.text), messageWith(M5.text))).toBe(true);
  });

  it("shows a channel_join as the system line 'X joined the channel', and channel_leave as 'X left the channel'", async () => {
    const leave = message({ ts: at(NOW - 2 * MIN), text: '<@U_BOB> has left the channel', user: USER_BOB.id, subtype: 'channel_leave' });
    await renderPane(loaded({}, [...MESSAGES, leave]));
    const joined = within(log()).getByText('Bob Builder joined the channel');
    expect(joined.closest('article')).toBeNull();
    expect(within(log()).getByText('Bob Builder left the channel')).toBeTruthy();
    expect(within(log()).queryByText(/has joined the channel/)).toBeNull();
    expect(before(messageWith(M2.text), joined) && before(joined, messageWith(M3.text))).toBe(true);
  });

  it("puts one 'New messages' divider before the first message from someone else newer than last_read", async () => {
    await renderPane(loaded());
    const dividers = within(log()).getAllByRole('separator', { name: 'New messages' });
    expect(dividers).toHaveLength(1);
    const divider = dividers[0]!;
    expect(within(divider).getByText('New messages')).toBeTruthy();
    // My own newer message and the read ones come before it; Alice's newer message right after it.
    expect(before(messageWith(M2.text), divider)).toBe(true);
    expect(before(messageWith(M3.text), divider)).toBe(true);
    expect(divider.nextElementSibling).toBe(messageWith(M4.text));
  });

  it('keeps the divider where it was while the conversation stays open, even once it is read', async () => {
    const { push } = await renderPane(loaded());
    await push(loaded({ last_read: M5.ts, unread_count: 0, unread_count_display: 0 }));
    expect(within(log()).getByRole('separator', { name: 'New messages' }).nextElementSibling).toBe(messageWith(M4.text));
  });

  it('shows no divider when nothing is newer than last_read', async () => {
    await renderPane(loaded({ last_read: M5.ts, unread_count: 0, unread_count_display: 0 }));
    expect(within(log()).queryByRole('separator', { name: 'New messages' })).toBeNull();
  });

  it("shows a message being sent with 'Sending...' instead of its time", async () => {
    const pending = message({ ts: '9999999999.999999', text: 'On my way', user: USER_ME.id, pending: true, client_msg_id: 'c-1' });
    const { push } = await renderPane(loaded({}, [...MESSAGES, pending]));
    const article = messageWith('On my way');
    expect(within(article).getByText('Sending...')).toBeTruthy();
    expect(within(article).getByText('Morgan Example')).toBeTruthy();
    expect(within(messageWith(M5.text)).queryByText('Sending...')).toBeNull();

    // The live event for the sent message replaces the pending copy.
    await push(loaded({}, [...MESSAGES, { ...pending, pending: false, ts: at(NOW), client_msg_id: 'c-1' }]));
    expect(within(log()).queryByText('Sending...')).toBeNull();
    expect(within(messageWith('On my way')).getByText('12:00 PM')).toBeTruthy();
  });
});

describe('ConversationPane offline (issue 14 §3)', () => {
  it("shows a reply that waits in the outbox with 'Waiting to send'", async () => {
    const queued = message({ ts: '9999999999.999999', text: 'On the train', user: USER_ME.id, pending: true, queued: true, client_msg_id: 'c-2' });
    await renderPane(loaded({}, [...MESSAGES, queued]));
    expect(within(messageWith('On the train')).getByText('Waiting to send')).toBeTruthy();
    expect(within(messageWith('On the train')).queryByText('Sending...')).toBeNull();
  });
});

describe('ConversationPane sending (SPEC §2.6, §4.6, §8)', () => {
  it('Enter sends the text to this conversation and clears the box', async () => {
    const { fake, events } = await renderPane(loaded());
    await events.click(box());
    await events.keyboard('Ship it');
    expect(fake.api.send).not.toHaveBeenCalled();
    await events.keyboard('{Enter}');
    await settle();
    expect(fake.api.send).toHaveBeenCalledTimes(1);
    expect(fake.api.send).toHaveBeenCalledWith(CHANNEL_ID, 'Ship it');
    expect(box().value).toBe('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Shift+Enter adds a newline and does not send', async () => {
    const { fake, events } = await renderPane(loaded());
    await events.click(box());
    await events.keyboard('line one{Shift>}{Enter}{/Shift}line two');
    await settle();
    expect(fake.api.send).not.toHaveBeenCalled();
    expect(box().value).toBe('line one\nline two');

    await events.keyboard('{Enter}');
    await settle();
    expect(fake.api.send).toHaveBeenCalledWith(CHANNEL_ID, 'line one\nline two');
  });

  it('does not send an empty or blank message', async () => {
    const { fake, events } = await renderPane(loaded());
    await events.click(box());
    await events.keyboard('{Enter}   {Enter}');
    await settle();
    expect(fake.api.send).not.toHaveBeenCalled();
  });

  it("a failed send shows 'Failed to send message: {reason}' with Dismiss, and puts the text back in the box", async () => {
    const { fake, events } = await renderPane(loaded());
    fake.api.send.mockResolvedValueOnce({ ok: false, error: 'channel_not_found' });
    await events.click(box());
    await events.keyboard('Ship it{Enter}');
    await settle();

    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain('Failed to send message: channel_not_found');
    expect(box().value).toBe('Ship it');

    await events.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(box().value).toBe('Ship it');
  });

  it('a later successful send clears the failure banner', async () => {
    const { fake, events } = await renderPane(loaded());
    fake.api.send.mockResolvedValueOnce({ ok: false, error: 'rate_limited' });
    await events.click(box());
    await events.keyboard('Ship it{Enter}');
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Failed to send message: rate_limited');
    await events.keyboard('{Enter}');
    await settle();
    expect(fake.api.send).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(box().value).toBe('');
  });
});

describe('ConversationPane search (SPEC §2.6)', () => {
  const search = () => screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search in conversation' });
  const highlighted = () =>
    within(log())
      .getAllByRole('article')
      .filter((a) => a.classList.contains('highlighted'));

  it("'/' opens 'Search in conversation...'; typing shows 'n / total'; Enter and Shift+Enter step through the matches and wrap; Esc closes", async () => {
    const { events, onClose } = await renderPane(loaded());
    expect(screen.queryByRole('searchbox')).toBeNull();

    await events.keyboard('/');
    expect(search().getAttribute('placeholder')).toBe('Search in conversation...');
    expect(document.activeElement).toBe(search());
    expect(search().value).toBe('');

    // Case-insensitive over the messages' text: M1, M2, M3 and M4 mention the deploy.
    await events.keyboard('deploy');
    expect(screen.getByText('1 / 4')).toBeTruthy();
    expect(highlighted()).toEqual([messageWith(M1.text)]);

    await events.keyboard('{Enter}');
    expect(screen.getByText('2 / 4')).toBeTruthy();
    expect(highlighted()).toEqual([messageWith(M2.text)]);
    await events.keyboard('{Enter}{Enter}');
    expect(screen.getByText('4 / 4')).toBeTruthy();
    expect(highlighted()).toEqual([messageWith(M4.text)]);
    await events.keyboard('{Enter}');
    expect(screen.getByText('1 / 4')).toBeTruthy();

    await events.keyboard('{Shift>}{Enter}{/Shift}');
    expect(screen.getByText('4 / 4')).toBeTruthy();
    await events.keyboard('{Shift>}{Enter}{/Shift}');
    expect(screen.getByText('3 / 4')).toBeTruthy();
    expect(highlighted()).toEqual([messageWith(M3.text)]);

    await events.keyboard('{Escape}');
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(highlighted()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("says '0 / 0' when nothing matches, and starts over at the first match when the text changes", async () => {
    const { events } = await renderPane(loaded());
    await events.keyboard('/');
    await events.keyboard('deploy{Enter}{Enter}');
    expect(screen.getByText('3 / 4')).toBeTruthy();
    await events.keyboard(' done');
    expect(screen.getByText('1 / 1')).toBeTruthy();
    await events.keyboard('zzz');
    expect(screen.getByText('0 / 0')).toBeTruthy();
    expect(highlighted()).toEqual([]);
  });

  it("'/' typed in the message box is text, not the search", async () => {
    const { events } = await renderPane(loaded());
    await events.click(box());
    await events.keyboard('and/or');
    expect(box().value).toBe('and/or');
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('Cmd/Ctrl+Shift+K opens it too, even from the message box', async () => {
    const { events } = await renderPane(loaded());
    await events.click(box());
    await events.keyboard('{Control>}{Shift>}K{/Shift}{/Control}');
    expect(search()).toBeTruthy();
  });
});

describe('ConversationPane mark as read (SPEC §2.6, §4.4)', () => {
  it('shows Mark as read while the conversation is unread, and it asks the engine to mark it read', async () => {
    const { fake, events, push } = await renderPane(loaded());
    await events.click(screen.getByRole('button', { name: 'Mark as read' }));
    expect(fake.api.markRead).toHaveBeenCalledTimes(1);
    expect(fake.api.markRead).toHaveBeenCalledWith(CHANNEL_ID);

    await push(loaded({ unread_count: 0, unread_count_display: 0, last_read: M5.ts }));
    expect(screen.queryByRole('button', { name: 'Mark as read' })).toBeNull();
  });

  it('does not show Mark as read on a read conversation', async () => {
    await renderPane(loaded({ unread_count: 0, unread_count_display: 0, last_read: M5.ts }));
    expect(screen.getByRole('heading', { level: 2, name: 'general' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark as read' })).toBeNull();
  });

  it('Back closes the conversation', async () => {
    const { events, onClose } = await renderPane(loaded());
    await events.click(screen.getByRole('button', { name: 'Back' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('ConversationPane refinement (SPEC §2.6, §4.7, §8)', () => {
  const toolbar = () => screen.queryByRole('toolbar', { name: 'Refine message' });
  const refineView = () => screen.queryByRole('region', { name: 'Refined message' });

  it('shows the refinement toolbar only when AI is enabled', async () => {
    const { unmount } = await renderPane(loaded());
    expect(box()).toBeTruthy();
    expect(toolbar()).toBeNull();
    unmount();

    await renderPane(loaded(), { aiEnabled: true });
    expect(toolbar()).not.toBeNull();
    expect(
      within(toolbar()!)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Polish', 'Shorter', 'Simplify', 'Professional', 'List']);
  });

  it('refines the draft of this conversation; Apply puts the suggestion in the box, ready to send', async () => {
    const { fake, events } = await renderPane(loaded(), { aiEnabled: true });
    await events.click(box());
    await events.keyboard('can u check the deploy');
    await events.click(within(toolbar()!).getByRole('button', { name: 'Professional' }));
    await settle();
    expect(fake.refines).toHaveLength(1);
    expect(fake.refines[0]).toMatchObject({ text: 'can u check the deploy', mode: 'professional' });
    expect(within(refineView()!).getByText('Generating...')).toBeTruthy();

    await act(async () => fake.refines[0]!.stream.next({ done: true, text: 'Could you please check the deploy?' }));
    await events.click(within(refineView()!).getByRole('button', { name: 'Apply' }));
    expect(box().value).toBe('Could you please check the deploy?');
    expect(document.activeElement).toBe(box());
    await events.keyboard('{Enter}');
    await settle();
    expect(fake.api.send).toHaveBeenCalledWith(CHANNEL_ID, 'Could you please check the deploy?');
  });

  it('Esc in the refine view discards it and does not reach the page (which would close the conversation)', async () => {
    const { fake, events } = await renderPane(loaded(), { aiEnabled: true });
    await events.click(box());
    await events.keyboard('ship it');
    await events.keyboard('{Alt>}1{/Alt}');
    await settle();
    expect(fake.refines[0]).toMatchObject({ text: 'ship it', mode: 'polish' });
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      await events.keyboard('{Escape}');
      expect(refineView()).toBeNull();
      expect(onWindowKey).not.toHaveBeenCalled();
      await settle();
      expect(fake.refines[0]!.stream.released).toBe(1);
      // The next Esc is the page's again (close the conversation).
      await events.keyboard('{Escape}');
      expect(onWindowKey).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });

  it('Esc in the conversation search closes the search, not the refine view', async () => {
    const { events } = await renderPane(loaded(), { aiEnabled: true });
    await events.click(box());
    await events.keyboard('ship it');
    await events.click(within(toolbar()!).getByRole('button', { name: 'Shorter' }));
    await settle();
    await events.click(screen.getByRole('button', { name: 'Search in conversation' }));
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(refineView()).not.toBeNull();
  });

  it("a refine failure shows the alert 'Error refining message: {reason}' and closes the view", async () => {
    const { fake, events } = await renderPane(loaded(), { aiEnabled: true });
    await events.click(box());
    await events.keyboard('ship it');
    await events.click(within(toolbar()!).getByRole('button', { name: 'List' }));
    await settle();
    await act(async () => fake.refines[0]!.stream.next({ error: 'AI provider unavailable' }));
    expect(refineView()).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Error refining message: AI provider unavailable');
    expect(box().value).toBe('ship it');
  });
});

describe('ConversationPane Slack content (issue 11)', () => {
  const T_HOME = 'T_HOME';
  const slack = (over: Partial<Message> & { ts: string }) => message({ text: '', ...over });
  const MINE = slack({ ts: at(NOW - 50 * MIN), text: 'My own note', user: USER_ME.id, user_team: T_HOME });
  const BOT = slack({ ts: at(NOW - 45 * MIN), text: 'Build passed', user: 'U_JENKINS_BOT', bot_id: 'B1', bot_profile: { id: 'B1', name: 'Jenkins\u202E' } });
  const HOOK = slack({ ts: at(NOW - 40 * MIN), text: 'Deploy hook fired', user: undefined, subtype: 'bot_message', bot_id: 'B2', username: 'deploy-hook' });
  const EXT = slack({
    ts: at(NOW - 35 * MIN),
    text: 'Hello from Acme',
    user: 'U_ERIN',
    user_team: 'T_ACME',
    user_profile: { real_name: 'Erin External', display_name: 'erin' },
  });
  const CONNECT = slack({ ts: at(NOW - 34 * MIN), text: 'Known but external', user: USER_BOB.id, user_team: 'T_ACME' });
  const TOPIC = slack({
    ts: at(NOW - 30 * MIN),
    text: '<@U_BOB> set the channel topic: Ship it',
    user: USER_BOB.id,
    subtype: 'channel_topic',
    topic: 'Ship *it* in <#C_RANDOM>',
  } as Partial<Message> & { ts: string });
  const RENAME = slack({
    ts: at(NOW - 29 * MIN),
    text: '<@U_BOB> renamed the channel from "a" to "b"',
    user: USER_BOB.id,
    subtype: 'channel_name',
    old_name: 'a',
    name: 'b',
  } as Partial<Message> & { ts: string });
  const APP_CARD = slack({
    ts: at(NOW - 20 * MIN),
    text: 'PagerDuty alert',
    user: 'U_PD',
    bot_id: 'B3',
    bot_profile: { name: 'PagerDuty' },
    attachments: [{ color: 'danger', title: 'Database unreachable', title_link: 'https://pd.example/i/1', text: 'Triggered on db-1' }],
    resolved_text: 'PagerDuty alert\nDatabase unreachable\nTriggered on db-1',
    reactions: [{ name: 'eyes', count: 2, users: [USER_ME.id, USER_BOB.id] }],
  });
  const MENTIONS = slack({
    ts: at(NOW - 10 * MIN),
    text: 'See <#C_RANDOM> and <#C_RANDOM|> :partyparrot: <!subteam^S_ONCALL> <#constructor>',
    user: USER_ALICE.id,
  });
  const SLACK_MESSAGES = [MINE, BOT, HOOK, EXT, CONNECT, TOPIC, RENAME, APP_CARD, MENTIONS];

  function slackDetail(): ConversationDetail {
    return {
      ...loaded({}, SLACK_MESSAGES),
      mentions: { channels: { C_RANDOM: 'random' }, usergroups: { S_ONCALL: 'oncall' }, emoji: { partyparrot: 'https://emoji.example/pp.gif' } },
    };
  }
  const meta = (article: HTMLElement) => article.querySelector('.message-meta') as HTMLElement;

  it("names authors from the user record, the bot profile, the webhook's username or the external profile, never 'Unknown'", async () => {
    await renderPane(slackDetail());
    expect(within(log()).queryByText('Unknown')).toBeNull();
    expect(meta(messageWith('Build passed')).querySelector('.message-author')!.textContent).toBe('Jenkins');
    expect(meta(messageWith('Deploy hook fired')).querySelector('.message-author')!.textContent).toBe('deploy-hook');
    expect(meta(messageWith('Hello from Acme')).querySelector('.message-author')!.textContent).toBe('Erin External');
    expect(meta(messageWith('My own note')).querySelector('.message-author')!.textContent).toBe('Morgan Example');
    expect(log().textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it("marks apps with 'APP' and people from other organizations with 'external'", async () => {
    await renderPane(slackDetail());
    expect(within(meta(messageWith('Build passed'))).getByText('APP')).toBeTruthy();
    expect(within(meta(messageWith('Deploy hook fired'))).getByText('APP')).toBeTruthy();
    expect(within(meta(messageWith('Database unreachable'))).getByText('APP')).toBeTruthy();
    expect(within(meta(messageWith('Hello from Acme'))).getByText('external')).toBeTruthy();
    expect(within(meta(messageWith('Known but external'))).getByText('external')).toBeTruthy();
    for (const own of ['My own note', 'See ']) {
      const m = within(log()).getByText((_, el) => el?.tagName === 'ARTICLE' && el.textContent!.includes(own));
      expect(within(meta(m as HTMLElement)).queryByText('APP')).toBeNull();
      expect(within(meta(m as HTMLElement)).queryByText('external')).toBeNull();
    }
  });

  it('shows system subtypes as one line, as Slack words them', async () => {
    await renderPane(slackDetail());
    const topic = within(log()).getByText('Bob Builder set the channel topic: Ship it in #random');
    expect(topic.closest('article')).toBeNull();
    expect(topic.className).toBe('system-line');
    expect(within(log()).getByText('Bob Builder renamed the channel from "a" to "b"')).toBeTruthy();
  });

  it('draws attachments and reactions, with the member’s own reaction marked', async () => {
    await renderPane(slackDetail());
    const card = messageWith('Database unreachable');
    expect(within(card).getByRole('link', { name: 'Database unreachable' }).getAttribute('href')).toBe('https://pd.example/i/1');
    expect(card.querySelector<HTMLElement>('.attachment')!.style.getPropertyValue('--bar')).toBe('#a30200');
    const eyes = within(card).getByRole('listitem', { name: ':eyes: 2 reactions, including you' });
    expect(eyes.className).toBe('reaction mine');
  });

  it('names channels, user groups and custom emoji from the conversation’s mentions (an Object key is no name)', async () => {
    await renderPane(slackDetail());
    const article = within(log()).getAllByText('#random', { selector: '.mention' })[0]!.closest('article')!;
    expect(Array.from(article.querySelectorAll('.mention')).map((m) => m.textContent)).toEqual(['#random', '#random', '@oncall', '#constructor']);
    expect(within(article).getByRole('img', { name: ':partyparrot:' }).getAttribute('src')).toBe('https://emoji.example/pp.gif');
  });

  it('searches what the member can read: resolved_text, else text', async () => {
    const { events } = await renderPane(slackDetail());
    await events.keyboard('/');
    await events.keyboard('db-1');
    expect(screen.getByText('1 / 1')).toBeTruthy();
    expect(
      within(log())
        .getAllByRole('article')
        .filter((a) => a.classList.contains('highlighted')),
    ).toEqual([messageWith('Database unreachable')]);
  });
});
