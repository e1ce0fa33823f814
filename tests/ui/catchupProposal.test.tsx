/**
 * Issue 12 §3 on the Ask AI page (happy-dom, fake engine): a catch-up proposal shows 'Mark these
 * read' and 'Not now' buttons, reachable by keyboard and named; each sends the proposal's id; a
 * proposal no longer open loses its buttons; a reload brings an open one back. What a yes marked
 * read (by button, typed or spoken) is undone with Cmd/Ctrl+Z while the page is open, each
 * conversation back to where it was read up to, with an 'Undone' toast.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { TestRouter } from './router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CatchupChatResponse, CatchupStartResponse } from '../../src/model/ai';
import { ToastProvider } from '../../src/ui/components/Toasts';
import { AskAiPage } from '../../src/ui/screens/AskAiPage';
import { createFakeEngine } from './fakeEngine';

const STATS = { urgent: 1, can_wait: 1, fyi: 2, total: 4, cleared: 0 };
const SESSION: CatchupStartResponse = { success: true, sessionId: 's1', message: 'You have 4 unread conversations.', stats: STATS };
const PROPOSAL = { id: 'p-1', description: 'Mark 2 FYI conversations as read', conversation_ids: ['C_ANN', 'C_RANDOM'] };
const PROPOSED: CatchupChatResponse = { success: true, message: 'Mark 2 FYI conversations as read? Say yes to confirm.', proposal: PROPOSAL };
const MARKED = [
  { conversation_id: 'C_ANN', last_read: '1700000000.000100' },
  { conversation_id: 'C_RANDOM', last_read: '0000000000.000000' },
];
const DONE: CatchupChatResponse = { success: true, message: 'Done. I marked 2 conversations as read. 2 unread conversations left.', marked: MARKED };

function renderAsk(path = '/catchup') {
  const fake = createFakeEngine();
  fake.api.catchupStart.mockResolvedValue(SESSION);
  fake.api.markUnread.mockResolvedValue(true);
  render(
    <ToastProvider>
      <TestRouter path={path}>
        <Switch>
          <Route path="/catchup">{<AskAiPage />}</Route>
          <Route path="/ask-ai">{<AskAiPage />}</Route>
        </Switch>
      </TestRouter>
    </ToastProvider>,
  );
  return fake;
}

const wait = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));
const composer = () => screen.getByRole('textbox', { name: 'Message Sift AI' });
const thread = () => screen.getByRole('log', { name: 'Conversation with Sift AI' });
const proposal = () => within(thread()).queryByRole('group', { name: PROPOSAL.description });
const confirmButton = () => within(proposal()!).getByRole('button', { name: 'Mark these read' });
const notNow = () => within(proposal()!).getByRole('button', { name: 'Not now' });
const ask = async (text: string) => {
  fireEvent.change(composer(), { target: { value: text } });
  fireEvent.keyDown(composer(), { key: 'Enter' });
  await wait();
};
const undoKey = (target: Element | Window = window) => fireEvent.keyDown(target, { key: 'z', ctrlKey: true });
const toasts = () => document.querySelector('.toasts')?.textContent ?? '';

beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('the proposal’s buttons', () => {
  it('show under the reply that proposed, named, keyboard-reachable; Mark these read sends the proposal’s id', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED);
    fake.api.catchupAnswer.mockResolvedValueOnce(DONE);
    await ask('clear my FYI messages');
    const group = proposal();
    expect(group).not.toBeNull();
    expect(group!.closest('article')?.textContent).toContain('Say yes to confirm.');
    for (const button of [confirmButton(), notNow()]) {
      expect(button.tagName).toBe('BUTTON');
      expect(button.tabIndex).toBe(0);
      expect((button as HTMLButtonElement).disabled).toBe(false);
    }
    confirmButton().focus();
    fireEvent.click(confirmButton());
    await wait();
    expect(fake.api.catchupAnswer).toHaveBeenCalledExactlyOnceWith('s1', 'p-1', true);
    expect(proposal()).toBeNull();
    // Focus does not fall to the page: it goes back to the message box.
    expect(document.activeElement).toBe(composer());
    expect(
      within(thread())
        .getAllByRole('article')
        .map((a) => a.textContent),
    ).toContain('Mark these read');
  });

  it('Not now sends the id with confirm false, and the buttons go', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED);
    fake.api.catchupAnswer.mockResolvedValueOnce({ success: true, message: 'OK, I left them unread.' });
    await ask('clear my FYI messages');
    fireEvent.click(notNow());
    await wait();
    expect(fake.api.catchupAnswer).toHaveBeenCalledExactlyOnceWith('s1', 'p-1', false);
    expect(
      within(thread())
        .getAllByRole('article')
        .map((a) => a.textContent),
    ).toContain('Not now');
    expect(proposal()).toBeNull();
  });

  it('stay while the member asks something else, and go when the server says the proposal is no longer open', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED).mockResolvedValueOnce({ success: true, message: 'One urgent: #incidents.', proposal: PROPOSAL });
    fake.api.catchupAnswer.mockResolvedValueOnce({ success: false, error: 'This proposal is no longer open. Ask again.' });
    await ask('clear my FYI messages');
    await ask('what is urgent?');
    expect(within(thread()).getAllByRole('group')).toHaveLength(1);
    fireEvent.click(confirmButton());
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('This proposal is no longer open. Ask again.');
    expect(proposal()).toBeNull();
  });

  it('come back after a reload while the proposal is open', async () => {
    sessionStorage.setItem('sift_catchup_session', 's1');
    const fake = createFakeEngine();
    fake.api.catchupSession.mockResolvedValue({
      success: true,
      session: {
        sessionId: 's1',
        createdAt: 0,
        stats: STATS,
        history: [
          { role: 'assistant', content: SESSION.message!, at: 0 },
          { role: 'user', content: 'clear my FYI messages', at: 0 },
          { role: 'assistant', content: PROPOSED.message!, at: 0 },
        ],
        pending: PROPOSAL,
      },
    });
    render(
      <TestRouter path={'/ask-ai'}>
        <Switch>
          <Route path="/ask-ai">{<AskAiPage />}</Route>
        </Switch>
      </TestRouter>,
    );
    await wait();
    expect(proposal()?.closest('article')?.textContent).toContain('Say yes to confirm.');
  });
});

describe('Cmd/Ctrl+Z undoes the catch-up’s mark read', () => {
  it('restores each conversation’s read position and says Undone; a second press has nothing to undo', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED);
    fake.api.catchupAnswer.mockResolvedValueOnce(DONE);
    await ask('clear my FYI messages');
    fireEvent.click(confirmButton());
    await wait();
    undoKey();
    await wait();
    expect(fake.api.markUnread.mock.calls).toEqual([
      ['C_ANN', '1700000000.000100'],
      ['C_RANDOM', '0000000000.000000'],
    ]);
    expect(toasts()).toBe('Undone');
    expect(fake.api.catchupStats).toHaveBeenLastCalledWith('s1');
    undoKey();
    await wait();
    expect(fake.api.markUnread).toHaveBeenCalledTimes(2);
  });

  it('works after a typed (or spoken) yes too, also from the empty message box; with text in the box, the key is the box’s own', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED).mockResolvedValueOnce(DONE);
    await ask('clear my FYI messages');
    await ask('yes');
    expect(fake.api.catchupChat).toHaveBeenLastCalledWith('s1', 'yes');
    fireEvent.change(composer(), { target: { value: 'half a sentence' } });
    undoKey(composer());
    await wait();
    expect(fake.api.markUnread).not.toHaveBeenCalled();
    fireEvent.change(composer(), { target: { value: '' } });
    undoKey(composer());
    await wait();
    expect(fake.api.markUnread).toHaveBeenCalledTimes(2);
  });

  it('says when it could not undo', async () => {
    const fake = renderAsk();
    await wait();
    fake.api.catchupChat.mockResolvedValueOnce(PROPOSED);
    fake.api.catchupAnswer.mockResolvedValueOnce(DONE);
    fake.api.markUnread.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await ask('clear my FYI messages');
    fireEvent.click(confirmButton());
    await wait();
    undoKey();
    await wait();
    expect(toasts()).toBe('Could not undo');
  });
});
