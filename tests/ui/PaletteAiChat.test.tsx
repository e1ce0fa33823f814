/**
 * The AI chat inside the search palette (SPEC §2.8, §4.10, §4.11, §8 'AI chat') on happy-dom:
 * the palette as Shell renders it (query in state), the fake engine answering `ask`.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AskAnswer, AskSource } from '../../src/model/ai';
import { PaletteAiChat, type PaletteChat } from '../../src/ui/components/PaletteAiChat';
import { SearchPalette, type SearchPaletteProps } from '../../src/ui/components/SearchPalette';
import type { AskResult } from '../../src/worker/ai';
import { createFakeEngine } from './fakeEngine';

const SOURCE: AskSource = {
  id: 'C1:1700000000.000100',
  author: 'Ada Lovelace',
  channel: '#eng-backend',
  text: 'The deploy is blocked until the migration review is done. Please take a look at the pull request when you can, we want to ship today.',
  timestamp: '1700000000.000100',
  permalink: '/conversations/C1?ts=1700000000.000100',
  score: 0.92,
  conversation_id: 'C1',
};
const SOURCE2: AskSource = {
  ...SOURCE,
  id: 'D1:1700000100.000200',
  author: 'Grace Hopper',
  channel: 'Grace Hopper',
  text: 'Review done',
  timestamp: '1700000100.000200',
  conversation_id: 'D1',
};

const ANSWER: AskAnswer = {
  answer: 'The deploy is blocked on the migration review.',
  sources: [SOURCE, SOURCE2],
  confidence: 0.82,
  processing_time_ms: 140,
  tokens_used: 310,
  search_iterations: 1,
  model: 'local',
};

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** The palette with its query in state, as Shell holds it. */
function Palette(props: Omit<SearchPaletteProps, 'query' | 'onQuery'> & { initial: string }) {
  const [query, setQuery] = useState(props.initial);
  return <SearchPalette {...props} query={query} onQuery={setQuery} />;
}

function setup(initial = 'what is blocked?', over: Partial<SearchPaletteProps> = {}) {
  const fake = createFakeEngine({ flags: { aiEnabled: true } });
  const onClose = vi.fn();
  const onChoose = vi.fn();
  const onOpenSource = vi.fn();
  const user = userEvent.setup();
  render(
    <Palette
      initial={initial}
      status="done"
      results={{ conversations: [], messages: [], users: [] }}
      resetKey={0}
      actions={[]}
      aiEnabled
      onChoose={onChoose}
      onClose={onClose}
      onOpenSource={onOpenSource}
      {...over}
    />,
  );
  return { fake, user, onClose, onChoose, onOpenSource };
}

/** Opens the chat from the search with Cmd+Enter, the answer held until the test gives it. */
async function openChat(initial?: string) {
  const ctx = setup(initial);
  const pending = deferred<AskResult>();
  ctx.fake.api.ask.mockImplementationOnce(() => pending.promise);
  await ctx.user.keyboard('{Meta>}{Enter}{/Meta}');
  return { ...ctx, pending };
}

const chatLog = () => screen.getByRole('log', { name: 'AI chat' });
const thinking = () => screen.queryByRole('status', { name: 'AI is thinking' });
const followUp = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Follow-up question' });
const turns = () =>
  within(chatLog())
    .queryAllByRole('article')
    .map((a) => [a.getAttribute('aria-label'), a.textContent]);

describe('Palette AI chat (SPEC §4.11)', () => {
  it('appends the question, shows loading dots, then the answer with its sources and confidence', async () => {
    const { fake, pending } = await openChat();
    expect(screen.getByRole('dialog', { name: 'Ask AI' })).toBeTruthy();
    expect(fake.api.ask).toHaveBeenCalledTimes(1);
    expect(fake.api.ask).toHaveBeenCalledWith('what is blocked?', undefined, []);
    expect(turns()).toEqual([['Your question', 'what is blocked?']]);
    expect(thinking()).not.toBeNull();
    expect(document.activeElement).toBe(followUp());

    await act(async () => pending.resolve({ ok: true, answer: ANSWER }));
    expect(thinking()).toBeNull();
    const answer = within(chatLog()).getByRole('article', { name: 'AI answer' });
    expect(within(answer).getByText('The deploy is blocked on the migration review.')).toBeTruthy();
    expect(within(answer).getByText('High confidence')).toBeTruthy();
    const sources = within(within(answer).getByRole('list', { name: 'Sources' })).getAllByRole('button');
    expect(sources).toHaveLength(2);
    expect(within(sources[0]!).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(sources[0]!).getByText('#eng-backend')).toBeTruthy();
    // Short text: the start of the message, cut with an ellipsis.
    const short = sources[0]!.querySelector('.pac-source-text')!.textContent!;
    expect(short.startsWith('The deploy is blocked until the migration review is done.')).toBe(true);
    expect(short.endsWith('…')).toBe(true);
    expect(short.length).toBeLessThanOrEqual(100);
    expect(within(sources[1]!).getByText('Review done')).toBeTruthy();
    // A DM source (channel named after its author) names the person once.
    expect(within(sources[1]!).getAllByText('Grace Hopper')).toHaveLength(1);
    // The question comes first, then the answer.
    expect(turns().map(([label]) => label)).toEqual(['Your question', 'AI answer']);
  });

  it.each([
    [0.5, 'Medium confidence'],
    [0.2, 'Low confidence'],
  ])('a confidence of %s shows %s', async (confidence, label) => {
    const { pending } = await openChat();
    await act(async () => pending.resolve({ ok: true, answer: { ...ANSWER, confidence, sources: [] } }));
    const answer = within(chatLog()).getByRole('article', { name: 'AI answer' });
    expect(within(answer).getByText(label)).toBeTruthy();
    expect(within(answer).queryByRole('list', { name: 'Sources' })).toBeNull();
  });

  it('choosing a source opens it (onOpenSource), by click or keyboard', async () => {
    const { pending, user, onOpenSource, onChoose } = await openChat();
    await act(async () => pending.resolve({ ok: true, answer: ANSWER }));
    const sources = within(chatLog()).getAllByRole('button');
    await user.click(sources[1]!);
    expect(onOpenSource).toHaveBeenCalledWith(SOURCE2);
    sources[0]!.focus();
    await user.keyboard('{Enter}');
    expect(onOpenSource).toHaveBeenLastCalledWith(SOURCE);
    expect(onChoose).not.toHaveBeenCalled();
  });

  it("an error answer shows 'Sorry, I encountered an error: {message}'", async () => {
    const { pending } = await openChat();
    await act(async () => pending.resolve({ ok: false, error: 'Rate limit reached' }));
    expect(thinking()).toBeNull();
    expect(turns()).toEqual([
      ['Your question', 'what is blocked?'],
      ['AI error', 'Sorry, I encountered an error: Rate limit reached'],
    ]);
  });

  it("an error with no text says 'Failed to get AI response'; a failed call shows its exception message", async () => {
    const { pending, fake, user } = await openChat();
    await act(async () => pending.resolve({ ok: false, error: '' }));
    expect(within(chatLog()).getByText('Sorry, I encountered an error: Failed to get AI response')).toBeTruthy();

    fake.api.ask.mockRejectedValueOnce(new Error('Engine stopped'));
    await user.type(followUp(), 'again?{Enter}');
    await settle();
    expect(within(chatLog()).getByText('Sorry, I encountered an error: Engine stopped')).toBeTruthy();
  });

  it('follow-up questions are asked in the chat and appended', async () => {
    const { pending, fake, user } = await openChat();
    await act(async () => pending.resolve({ ok: true, answer: ANSWER }));
    fake.api.ask.mockResolvedValueOnce({ ok: true, answer: { ...ANSWER, answer: 'Grace reviewed it.', sources: [] } });
    await user.type(followUp(), 'who reviewed it?{Enter}');
    expect(followUp().value).toBe('');
    await settle();
    // The follow-up carries the thread so far, so it reads in context.
    expect(fake.api.ask).toHaveBeenLastCalledWith('who reviewed it?', undefined, [
      { role: 'user', content: 'what is blocked?' },
      { role: 'assistant', content: ANSWER.answer },
    ]);
    expect(turns().map(([label]) => label)).toEqual(['Your question', 'AI answer', 'Your question', 'AI answer']);
    expect(within(chatLog()).getByText('Grace reviewed it.')).toBeTruthy();
  });

  it('leaves failed turns out of the thread a follow-up carries', async () => {
    const { pending, fake, user } = await openChat();
    await act(async () => pending.resolve({ ok: false, error: 'Busy' }));
    fake.api.ask.mockResolvedValueOnce({ ok: true, answer: ANSWER });
    await user.type(followUp(), 'try again{Enter}');
    await settle();
    expect(fake.api.ask).toHaveBeenLastCalledWith('try again', undefined, []);
  });

  it('ignores input while an answer is loading and when blank', async () => {
    const { pending, fake, user } = await openChat();
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });
    await user.type(followUp(), 'and then?');
    expect(send.disabled).toBe(true);
    await user.keyboard('{Enter}');
    await user.click(send);
    expect(fake.api.ask).toHaveBeenCalledTimes(1);
    expect(followUp().value).toBe('and then?');
    expect(turns()).toHaveLength(1);

    await act(async () => pending.resolve({ ok: true, answer: ANSWER }));
    await user.clear(followUp());
    await user.type(followUp(), '   {Enter}');
    expect(send.disabled).toBe(true);
    expect(fake.api.ask).toHaveBeenCalledTimes(1);
    expect(turns()).toHaveLength(2);
  });

  it('Cmd/Ctrl+Backspace goes back to the search with the query kept; the chat is still there on return', async () => {
    const { pending, user, fake, onClose } = await openChat('deploy blockers');
    await act(async () => pending.resolve({ ok: true, answer: ANSWER }));
    await user.keyboard('{Meta>}{Backspace}{/Meta}');
    const search = screen.getByRole<HTMLInputElement>('combobox', { name: 'Search' });
    expect(search.value).toBe('deploy blockers');
    expect(document.activeElement).toBe(search);
    expect(screen.queryByRole('log', { name: 'AI chat' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Search' })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    // Ctrl works as well; the thread is kept and the new question appended.
    fake.api.ask.mockResolvedValueOnce({ ok: false, error: 'Busy' });
    await user.type(search, ' today');
    await user.click(screen.getByRole('button', { name: 'Ask AI' }));
    await settle();
    expect(turns().map(([, text]) => text)).toEqual([
      'deploy blockers',
      expect.stringContaining('The deploy is blocked on the migration review.'),
      'deploy blockers today',
      'Sorry, I encountered an error: Busy',
    ]);
    await user.keyboard('{Control>}{Backspace}{/Control}');
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Search' }).value).toBe('deploy blockers today');
  });

  it('the back button goes back to the search too', async () => {
    const { user } = await openChat('deploy blockers');
    await user.click(screen.getByRole('button', { name: 'Back to search' }));
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Search' }).value).toBe('deploy blockers');
  });

  it('Backspace alone edits the follow-up, and does not leave the chat', async () => {
    const { user } = await openChat();
    await user.type(followUp(), 'abc{Backspace}');
    expect(followUp().value).toBe('ab');
    expect(chatLog()).toBeTruthy();
  });

  it('Esc closes the palette from the chat, and keys stay in the palette', async () => {
    const { user, onClose } = await openChat();
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      await user.type(followUp(), 'x');
      await user.keyboard('{Escape}');
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(onWindowKey).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });

  it("the footer hints change in the chat: '⌘⌫ Back', 'Enter Send', 'Esc Close'", async () => {
    await openChat();
    const footer = screen.getByRole('dialog').querySelector('.sp-footer') as HTMLElement;
    expect(Array.from(footer.querySelectorAll('kbd')).map((k) => k.textContent)).toEqual(['⌘⌫', 'Enter', 'Esc']);
    for (const word of ['Back', 'Send', 'Close']) expect(within(footer).getByText(word)).toBeTruthy();
  });
});

describe('PaletteAiChat without a source handler', () => {
  it('shows sources as text, not buttons', () => {
    const chat: PaletteChat = { turns: [{ id: 0, role: 'assistant', answer: ANSWER }], loading: false, ask: () => false };
    render(<PaletteAiChat chat={chat} onBack={vi.fn()} />);
    const list = screen.getByRole('list', { name: 'Sources' });
    expect(within(list).queryAllByRole('button')).toHaveLength(0);
    expect(within(list).getByText('Ada Lovelace')).toBeTruthy();
  });
});
