/**
 * Names and texts shown outside a message carry no bidi or control characters (issue 12 §4): a
 * right-to-left override in a name or an AI text would reverse what follows it ('gpj.exe' reads
 * 'exe.jpg') in a toast, an AI answer or reason, a source, or a joined list of names.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AskAnswer, AskSource } from '../../src/model/ai';
import type { ConversationRow as Row } from '../../src/model/rows';
import { AskThread } from '../../src/ui/components/ask/AskThread';
import { ConversationRow } from '../../src/ui/components/ConversationRow';
import { PaletteAiChat, type PaletteChat } from '../../src/ui/components/PaletteAiChat';
import { ToastProvider, useToast } from '../../src/ui/components/Toasts';
import { setEngineForTests, type RemoteEngine } from '../../src/ui/engine';
import { HIDDEN } from '../fixtures/hidden';

const RLO = '\u202E';

const SOURCE: AskSource = {
  id: 'C1:1700000000.000100',
  author: `Mallory ${RLO}gpj.exe`,
  channel: `#gen\u2066eral\u2069`,
  text: `open ${RLO}fdp.exe now\u0007`,
  timestamp: '1700000000.000100',
  permalink: '/conversations?open=C1',
  score: 0.9,
  conversation_id: 'C1',
};
const ANSWER: AskAnswer = {
  answer: `Mallory sent ${RLO}gpj.exe\u0000 [1].\n• open it`,
  sources: [SOURCE],
  confidence: 0.8,
  processing_time_ms: 1,
  tokens_used: 1,
  search_iterations: 1,
  model: 'local',
};

describe('AI answers and their sources', () => {
  it('the palette chat shows an answer and its sources without bidi or control characters', () => {
    const chat: PaletteChat = {
      turns: [
        { id: 0, role: 'assistant', answer: ANSWER },
        { id: 1, role: 'error', text: `Sorry, I encountered an error: ${RLO}321` },
      ],
      loading: false,
      ask: () => false,
    };
    const { container } = render(<PaletteAiChat chat={chat} onBack={vi.fn()} onOpenSource={vi.fn()} />);
    const answer = screen.getByRole('article', { name: 'AI answer' });
    expect(within(answer).getByText(/Mallory sent/).textContent).toBe('Mallory sent gpj.exe [1].\n• open it');
    expect(within(answer).getByText('Mallory gpj.exe')).toBeTruthy();
    expect(within(answer).getByText('#general')).toBeTruthy();
    expect(
      within(answer)
        .getByRole('button', { name: /open fdp\.exe now/ })
        .getAttribute('title'),
    ).toBe('Open in #general');
    expect(screen.getByRole('article', { name: 'AI error' }).textContent).toBe('Sorry, I encountered an error: 321');
    expect(container.textContent).not.toMatch(HIDDEN);
  });

  it('the Ask AI thread shows answers (line breaks kept) and sources without them', () => {
    const messages = [
      { id: 1, role: 'user' as const, text: `why ${RLO}?` },
      { id: 2, role: 'assistant' as const, text: ANSWER.answer, sources: [SOURCE], confidence: 0.8 },
    ];
    const { container } = render(<AskThread messages={messages} pending={false} now={1_700_000_100_000} onOpenSource={vi.fn()} />);
    const thread = screen.getByRole('log', { name: 'Conversation with Sift AI' });
    const answer = within(thread).getByRole('article', { name: 'Sift AI' });
    expect(within(answer).getByText(/Mallory sent/).textContent).toBe('Mallory sent gpj.exe [1].\n• open it');
    const link = within(answer).getByRole('link');
    expect(link.textContent).toContain('Mallory gpj.exe');
    expect(link.textContent).toContain('#general');
    expect(link.textContent).toContain('open fdp.exe now');
    expect(container.textContent).not.toMatch(HIDDEN);
  });
});

describe('a conversation row', () => {
  const row: Row = {
    id: 'C1',
    name: 'general',
    type: 'channel',
    is_private: false,
    unread: 1,
    preview: 'hi',
    latest_activity: 1_700_000_000,
    avatars: [{ initials: 'MA', colour: 1 }],
    more: 0,
  };
  const renderRow = (over: Partial<Row>) =>
    render(
      <div role="listbox" aria-label="Conversations">
        <ConversationRow row={{ ...row, ...over }} selected={false} onOpen={vi.fn()} now={1_700_000_000_000} index={0} setSize={1} />
      </div>,
    );

  it("shows the AI's reason (title and tooltip) without bidi or control characters", () => {
    renderRow({ category: 'urgent', reason: `Mallory asks you to open ${RLO}gpj.exe\u0085` });
    const option = screen.getByRole('option');
    expect(within(option).getByLabelText('Category urgent').getAttribute('title')).toBe('Mallory asks you to open gpj.exe');
    expect(within(option).getByRole('tooltip').textContent).toBe('Mallory asks you to open gpj.exe');
  });

  it('names its members on hover, joined, without bidi or control characters', async () => {
    const memberNames = vi.fn(async () => [`Mal${RLO}lory`, `Bob\u2066`, 'Cy\u0000']);
    setEngineForTests(Promise.resolve({ memberNames } as unknown as RemoteEngine));
    renderRow({});
    fireEvent.mouseEnter(document.querySelector('.row-avatars')!);
    await waitFor(() => expect(screen.getByTitle('Mallory, Bob, Cy')).toBeTruthy());
  });
});

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a toast naming a hostile conversation shows it without bidi or control characters', () => {
    let show: ReturnType<typeof useToast> = () => {};
    function Probe() {
      show = useToast();
      return null;
    }
    render(
      <ToastProvider>
        <Probe />
      </ToastProvider>,
    );
    act(() => show(`Marked ${RLO}gpj.exe\u001B[2J as read`));
    expect(screen.getByRole('status').textContent).toBe('Marked gpj.exe[2J as read');
  });
});
