/**
 * The Ask AI page (SPEC §2.9) and its catch-up flow (§4.12, §8 'Catch-up', §9) on happy-dom,
 * against the fake engine: the start screen, the session states (starting, in session, caught
 * up, failed, left), the thread with its sources, and the keys.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { TestRouter, useTestLocation } from './router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAUGHT_UP_MESSAGE, EXAMPLE_PROMPTS, SUGGESTION_CHIPS, type AskAnswer, type CatchupStartResponse, type UnreadSummary } from '../../src/model/ai';
import { AskAiPage } from '../../src/ui/screens/AskAiPage';
import { AnywhereKeys } from '../../src/ui/components/AnywhereKeys';
import { createFakeEngine, type FakeEngineOptions } from './fakeEngine';

const STATS = { urgent: 2, can_wait: 1, fyi: 3, total: 6, cleared: 0 };
const SESSION: CatchupStartResponse = { success: true, sessionId: 's1', message: 'Hi! You have 6 unread conversations.', stats: STATS };
const SOURCE = {
  id: 'C_DEPLOY:1700000000.000100',
  author: 'Ada Lovelace',
  channel: 'deploy-alerts',
  text: 'Prod deploy failed on step 4',
  timestamp: '1700000000.000100',
  permalink: '/conversations?open=C_DEPLOY',
  score: 0.9,
  conversation_id: 'C_DEPLOY',
};
const ANSWER: AskAnswer = {
  answer: 'The deploy failed [1].\n• Step 4 broke',
  sources: [SOURCE],
  confidence: 0.8,
  processing_time_ms: 12,
  tokens_used: 40,
  search_iterations: 1,
  model: 'local',
};

function Where() {
  const location = useTestLocation();
  return <p>{`At ${location.pathname}${location.search}`}</p>;
}

function renderAsk(path = '/ask-ai', options: FakeEngineOptions = {}) {
  const fake = createFakeEngine(options);
  fake.api.catchupStart.mockResolvedValue(SESSION);
  const view = render(
    <TestRouter path={path}>
      <Switch>
        <Route path="/ask-ai">{<AskAiPage />}</Route>
        <Route path="/catchup">{<AskAiPage />}</Route>
        <Route path="/conversations">{<Where />}</Route>
      </Switch>
    </TestRouter>,
  );
  return { fake, view };
}

/** Lets timers run and the engine's promises settle. */
const wait = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

const startBox = () => screen.getByRole('textbox', { name: 'Ask Sift AI' });
const composer = () => screen.getByRole('textbox', { name: 'Message Sift AI' });
const thread = () => screen.getByRole('log', { name: 'Conversation with Sift AI' });
const said = () =>
  within(thread())
    .queryAllByRole('article')
    .map((a) => [a.getAttribute('aria-label'), within(a).getByText((_, el) => el?.tagName === 'P').textContent]);
const type = (box: HTMLElement, text: string) => fireEvent.change(box, { target: { value: text } });
const enter = (box: HTMLElement, shiftKey = false) => fireEvent.keyDown(box, { key: 'Enter', shiftKey });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('start screen (SPEC §2.9)', () => {
  it('shows the heading, the question box, and a send button disabled while the box is blank', async () => {
    renderAsk();
    await wait();
    expect(screen.getByRole('heading', { name: 'Ask Sift AI anything' })).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    type(startBox(), '   ');
    expect(send.disabled).toBe(true);
    type(startBox(), 'what is urgent?');
    expect(send.disabled).toBe(false);
    expect(startBox().tagName).toBe('TEXTAREA');
  });

  it('offers the six suggestion chips in order', async () => {
    renderAsk();
    await wait();
    const chips = within(screen.getByRole('group', { name: 'Suggestions' })).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual([
      'craft suggested responses to simple messages',
      'summarize urgent messages',
      "I have 5 minutes, what's important?",
      'who should I reply to first',
      'surface team blockers',
      'clear all unread FYI messages',
    ]);
    expect(chips).toHaveLength(SUGGESTION_CHIPS.length);
  });

  it("summarizes the unread conversations, each category's count shown when above zero, and follows the stream", async () => {
    const { fake } = renderAsk('/ask-ai', { unreadSummary: { total: 12, urgent: 3, can_wait: 0, fyi: 2 } });
    await wait();
    const summary = screen.getByRole('region', { name: 'Unread summary' });
    expect(within(summary).getByText('12 unread conversations')).toBeTruthy();
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Urgent 3', 'FYI 2']);
    act(() => fake.streams.unreadSummary.next({ total: 4, urgent: 0, can_wait: 4, fyi: 0 } satisfies UnreadSummary));
    expect(within(summary).getByText('4 unread conversations')).toBeTruthy();
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Can Wait 4']);
  });

  it('types the example prompts into the placeholder: 50 ms a character, held 2.5 s, deleted at 30 ms, 0.8 s pause', async () => {
    renderAsk();
    await wait();
    const first = EXAMPLE_PROMPTS[0];
    await wait(50);
    expect(startBox().getAttribute('placeholder')).toBe(first.slice(0, 1));
    await wait(50 * (first.length - 1));
    expect(startBox().getAttribute('placeholder')).toBe(first);
    await wait(2_500 + 30);
    expect(startBox().getAttribute('placeholder')).toBe(first.slice(0, -1));
    await wait(30 * (first.length - 1) + 800 + 50);
    expect(startBox().getAttribute('placeholder')).toBe(EXAMPLE_PROMPTS[1].slice(0, 1));
  });

  it('stops the placeholder while the box has text', async () => {
    renderAsk();
    await wait(120);
    type(startBox(), 'x');
    const still = startBox().getAttribute('placeholder');
    await wait(500);
    expect(startBox().getAttribute('placeholder')).toBe(still);
  });

  it('shows the first prompt without animation under prefers-reduced-motion', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('reduce'),
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    renderAsk();
    await wait();
    expect(startBox().getAttribute('placeholder')).toBe(EXAMPLE_PROMPTS[0]);
    await wait(1_000);
    expect(startBox().getAttribute('placeholder')).toBe(EXAMPLE_PROMPTS[0]);
  });
});

describe('catch-up session (SPEC §4.12)', () => {
  it('a chip starts the session, shows the greeting, and sends the chip 100 ms later', async () => {
    const { fake } = renderAsk();
    fake.api.catchupChat.mockResolvedValue({ success: true, message: 'Two urgent: the deploy and the incident.' });
    fake.api.catchupStats.mockResolvedValue({ success: true, stats: { ...STATS, urgent: 1, cleared: 1 } });
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'summarize urgent messages' }));
    await wait();
    expect(fake.api.catchupStart).toHaveBeenCalledOnce();
    expect(screen.getByRole('heading', { name: 'Ask AI' })).toBeTruthy();
    expect(said()).toEqual([['Sift AI', SESSION.message]]);
    expect(
      within(screen.getByRole('list', { name: 'Catch-up stats' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Urgent 2', 'Can Wait 1', 'FYI 3', 'Cleared 0']);
    await wait(99);
    expect(fake.api.catchupChat).not.toHaveBeenCalled();
    await wait(1);
    expect(fake.api.catchupChat).toHaveBeenCalledExactlyOnceWith('s1', 'summarize urgent messages');
    await wait();
    expect(said()).toEqual([
      ['Sift AI', SESSION.message],
      ['You', 'summarize urgent messages'],
      ['Sift AI', 'Two urgent: the deploy and the incident.'],
    ]);
    // After the reply, the stats are refreshed.
    expect(fake.api.catchupStats).toHaveBeenCalledExactlyOnceWith('s1');
    expect(
      within(screen.getByRole('list', { name: 'Catch-up stats' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Urgent 1', 'Can Wait 1', 'FYI 3', 'Cleared 1']);
  });

  it('a typed question is sent with Enter (Shift+Enter does not send)', async () => {
    const { fake } = renderAsk();
    await wait();
    type(startBox(), 'who is waiting on me?');
    enter(startBox(), true);
    await wait(200);
    expect(fake.api.catchupStart).not.toHaveBeenCalled();
    enter(startBox());
    await wait(100);
    expect(fake.api.catchupChat).toHaveBeenCalledExactlyOnceWith('s1', 'who is waiting on me?');
  });

  it('follow-ups go to the session; the box is ignored while blank or while a reply is awaited', async () => {
    const { fake } = renderAsk('/catchup');
    let reply!: (r: { success: boolean; message: string }) => void;
    fake.api.catchupChat.mockImplementationOnce(() => new Promise((resolve) => (reply = resolve)));
    await wait();
    type(composer(), '   ');
    enter(composer());
    expect(fake.api.catchupChat).not.toHaveBeenCalled();
    type(composer(), 'first');
    enter(composer());
    await wait();
    expect(screen.getByRole('status', { name: 'Sift AI is thinking' })).toBeTruthy();
    type(composer(), 'second');
    enter(composer());
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fake.api.catchupChat).toHaveBeenCalledOnce();
    await act(async () => reply({ success: true, message: 'Done.' }));
    expect(screen.queryByRole('status', { name: 'Sift AI is thinking' })).toBeNull();
    enter(composer());
    await wait();
    expect(fake.api.catchupChat.mock.calls.map((c) => c[1])).toEqual(['first', 'second']);
  });

  it('/catchup starts the session at once, with no question', async () => {
    const { fake } = renderAsk('/catchup');
    await wait(500);
    expect(fake.api.catchupStart).toHaveBeenCalledOnce();
    expect(said()).toEqual([['Sift AI', SESSION.message]]);
    expect(fake.api.catchupChat).not.toHaveBeenCalled();
    expect(composer()).toBeTruthy();
  });

  it('/ask-ai?q= starts with that question sent', async () => {
    const { fake } = renderAsk('/ask-ai?q=what%20did%20Dana%20say');
    await wait(100);
    expect(fake.api.catchupChat).toHaveBeenCalledExactlyOnceWith('s1', 'what did Dana say');
  });

  it("no session and no message: 'You're all caught up! No unread messages.'; the question is answered by ask, with its sources", async () => {
    const { fake } = renderAsk();
    fake.api.catchupStart.mockResolvedValue({ success: true });
    fake.api.ask.mockResolvedValue({ ok: true, answer: ANSWER });
    await wait();
    type(startBox(), 'why did the deploy fail?');
    enter(startBox());
    await wait();
    expect(said()).toEqual([['Sift AI', CAUGHT_UP_MESSAGE]]);
    expect(screen.queryByRole('list', { name: 'Catch-up stats' })).toBeNull();
    await wait(100);
    expect(fake.api.ask).toHaveBeenCalledExactlyOnceWith('why did the deploy fail?');
    expect(fake.api.catchupChat).not.toHaveBeenCalled();
    const answer = within(thread()).getAllByRole('article').at(-1)!;
    // Plain text with its line break, bullets and references as they came.
    expect(within(answer).getByText(/The deploy failed/).textContent).toBe('The deploy failed [1].\n• Step 4 broke');
    expect(within(answer).getByText('High confidence')).toBeTruthy();
    const link = within(within(answer).getByRole('list', { name: 'Sources' })).getByRole('link');
    expect(link.textContent).toContain('Ada Lovelace');
    expect(link.textContent).toContain('deploy-alerts');
    expect(link.textContent).toContain('Prod deploy failed on step 4');
    expect(link.querySelector('time')).not.toBeNull();
    expect(link.getAttribute('href')).toBe('/conversations?open=C_DEPLOY&ts=1700000000.000100');
    // Questions after that still go to ask.
    type(composer(), 'and the incident?');
    enter(composer());
    await wait();
    expect(fake.api.ask).toHaveBeenLastCalledWith('and the incident?');
  });

  it('a source opens its conversation at the message', async () => {
    const { fake } = renderAsk();
    fake.api.catchupStart.mockResolvedValue({ success: true });
    fake.api.ask.mockResolvedValue({ ok: true, answer: ANSWER });
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'surface team blockers' }));
    await wait(100);
    await wait();
    fireEvent.click(screen.getByRole('link', { name: /Ada Lovelace/ }));
    expect(screen.getByText('At /conversations?open=C_DEPLOY&ts=1700000000.000100')).toBeTruthy();
  });

  it('a catch-up reply with sources shows them too', async () => {
    const { fake } = renderAsk('/ask-ai?q=blockers');
    fake.api.catchupChat.mockResolvedValue({ success: true, message: 'One blocker [1].', sources: [SOURCE] });
    await wait(100);
    await wait();
    expect(
      within(thread())
        .getByRole('link', { name: /Ada Lovelace/ })
        .getAttribute('href'),
    ).toBe('/conversations?open=C_DEPLOY&ts=1700000000.000100');
  });

  it("no session with a message: the start's message is shown", async () => {
    const { fake } = renderAsk();
    fake.api.catchupStart.mockResolvedValue({ success: true, message: 'Nothing new since 9:00.' });
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'who should I reply to first' }));
    await wait();
    expect(said()[0]).toEqual(['Sift AI', 'Nothing new since 9:00.']);
  });

  it.each([
    [{ success: false, error: 'No authentication token found. Please log in again.' }, 'No authentication token found. Please log in again.'],
    [{ success: false }, 'Failed to start session'],
  ])('a failed start shows its error in a banner with dismiss (%o)', async (response, text) => {
    const { fake } = renderAsk('/catchup');
    fake.api.catchupStart.mockResolvedValue(response);
    await wait();
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain(text);
    expect(said()).toEqual([]);
    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failed reply shows its error, else "Failed to send message"; a failed stats refresh, "Failed to get stats"', async () => {
    const { fake } = renderAsk('/catchup');
    fake.api.catchupChat
      .mockResolvedValueOnce({ success: false, error: 'Session expired' })
      .mockResolvedValueOnce({ success: false })
      .mockResolvedValueOnce({ success: true, message: 'ok' });
    fake.api.catchupStats.mockResolvedValue({ success: false });
    await wait();
    type(composer(), 'one');
    enter(composer());
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('Session expired');
    type(composer(), 'two');
    enter(composer());
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('Failed to send message');
    expect(fake.api.catchupStats).not.toHaveBeenCalled();
    type(composer(), 'three');
    enter(composer());
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('Failed to get stats');
  });

  it('a failed ask shows its error in the banner', async () => {
    const { fake } = renderAsk('/ask-ai?q=hello');
    fake.api.catchupStart.mockResolvedValue({ success: true });
    fake.api.ask.mockResolvedValue({ ok: false, error: 'Failed to get AI response' });
    await wait(100);
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('Failed to get AI response');
  });
});

describe('leaving (SPEC §4.12)', () => {
  it('the back button ends the session and resets to the start screen', async () => {
    const { fake } = renderAsk('/catchup');
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await wait();
    expect(fake.api.catchupEnd).toHaveBeenCalledExactlyOnceWith('s1');
    expect(screen.getByRole('heading', { name: 'Ask Sift AI anything' })).toBeTruthy();
    expect(screen.queryByRole('log')).toBeNull();
  });

  it('Esc does the same, even from the message box', async () => {
    const { fake } = renderAsk('/catchup');
    await wait();
    fireEvent.keyDown(composer(), { key: 'Escape' });
    await wait();
    expect(fake.api.catchupEnd).toHaveBeenCalledExactlyOnceWith('s1');
    expect(screen.getByRole('heading', { name: 'Ask Sift AI anything' })).toBeTruthy();
  });

  it('navigating away from the page ends the session', async () => {
    const { fake, view } = renderAsk('/catchup');
    await wait();
    view.unmount();
    await wait();
    expect(fake.api.catchupEnd).toHaveBeenCalledExactlyOnceWith('s1');
  });

  it('a session that starts after the user left is ended at once, and its question never sent', async () => {
    const { fake } = renderAsk();
    let started!: (r: CatchupStartResponse) => void;
    fake.api.catchupStart.mockImplementationOnce(() => new Promise((resolve) => (started = resolve)));
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'surface team blockers' }));
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await act(async () => started(SESSION));
    await wait(500);
    expect(fake.api.catchupEnd).toHaveBeenCalledExactlyOnceWith('s1');
    expect(fake.api.catchupChat).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Ask Sift AI anything' })).toBeTruthy();
  });

  it('a reply that arrives after leaving is dropped', async () => {
    const { fake } = renderAsk('/catchup');
    let reply!: (r: { success: boolean; message: string }) => void;
    fake.api.catchupChat.mockImplementationOnce(() => new Promise((resolve) => (reply = resolve)));
    await wait();
    type(composer(), 'anything?');
    enter(composer());
    await wait();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await act(async () => reply({ success: true, message: 'late' }));
    expect(screen.queryByText('late')).toBeNull();
    expect(fake.api.catchupStats).not.toHaveBeenCalled();
  });
});

describe('accessibility and keys', () => {
  it('the thread is a polite log region', async () => {
    renderAsk('/catchup');
    await wait();
    expect(thread().getAttribute('aria-live')).toBe('polite');
  });

  it("? lists the shortcuts, the Ask AI keys among them (the overlay is the shell's, over every page)", async () => {
    createFakeEngine();
    render(
      <TestRouter path="/ask-ai">
        <AnywhereKeys status={{ authenticated: true, user: null, workspace: null, organizations: [] }} onLogout={() => {}} />
        <AskAiPage />
      </TestRouter>,
    );
    await wait();
    fireEvent.keyDown(document.body, { key: '?' });
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Voice mode on or off')).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Ask AI' })).toBeTruthy();
    expect(within(dialog).getByText('Leave the Ask AI conversation (ends the catch-up)')).toBeTruthy();
  });

  it('? typed in the box is just text', async () => {
    renderAsk();
    await wait();
    fireEvent.keyDown(startBox(), { key: '?' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a reload in the middle of a catch-up', () => {
  beforeEach(() => vi.useRealTimers());
  afterEach(() => sessionStorage.clear());

  it('picks the tab’s session up again, with its history and stats', async () => {
    sessionStorage.setItem('sift_catchup_session', 'kept-1');
    const { fake } = renderAsk('/ask-ai');
    fake.api.catchupSession.mockResolvedValue({
      success: true,
      session: {
        sessionId: 'kept-1',
        createdAt: 0,
        history: [
          { role: 'assistant', content: 'You have 3 unread conversations.', at: 1 },
          { role: 'user', content: 'who should I reply to first', at: 2 },
          { role: 'assistant', content: 'Start with Dana.', at: 3 },
        ],
        stats: { urgent: 1, can_wait: 1, fyi: 1, total: 3, cleared: 0 },
      },
    });
    await screen.findByText('Start with Dana.');
    expect(fake.api.catchupSession).toHaveBeenCalledWith('kept-1');
    expect(
      within(thread())
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(['Sift AI', 'You', 'Sift AI']);
    expect(fake.api.catchupStart).not.toHaveBeenCalled();
    // Leaving ends it and forgets it.
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await screen.findByRole('heading', { name: 'Ask Sift AI anything' });
    expect(fake.api.catchupEnd).toHaveBeenCalledWith('kept-1');
    expect(sessionStorage.getItem('sift_catchup_session')).toBeNull();
  });

  it('starts over when the session is gone on the server', async () => {
    sessionStorage.setItem('sift_catchup_session', 'gone-1');
    const { fake } = renderAsk('/ask-ai');
    fake.api.catchupSession.mockResolvedValue({ success: false, error: 'Catch-up session not found' });
    await screen.findByRole('heading', { name: 'Ask Sift AI anything' });
    expect(sessionStorage.getItem('sift_catchup_session')).toBeNull();
  });

  it('remembers a new session for this tab', async () => {
    renderAsk('/catchup');
    await screen.findByRole('log', { name: 'Conversation with Sift AI' });
    await vi.waitFor(() => expect(sessionStorage.getItem('sift_catchup_session')).toBe(SESSION.sessionId));
  });
});
