/** The page's one polite announcer (issue 13 §3): throttled, coalesced, cleared; and the connection's drops and returns. */
import { act, render, renderHook, screen } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveStatus } from '../../src/model/types';
import {
  ANNOUNCE_CLEAR_MS,
  ANNOUNCE_GAP_MS,
  AnnouncerProvider,
  CONNECTION_FAILED,
  CONNECTION_LOST,
  CONNECTION_RESTORED,
  useAnnounce,
  useAnnounceConnection,
  type Announce,
} from '../../src/ui/components/Announcer';

let announce: Announce = () => {};
function Probe() {
  const said = useAnnounce();
  useEffect(() => {
    announce = said;
  }, [said]);
  return null;
}

function renderAnnouncer(extra?: ReactNode) {
  render(
    <AnnouncerProvider>
      <Probe />
      {extra}
    </AnnouncerProvider>,
  );
  return screen.getByRole('status');
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const say = (text: string, options?: Parameters<Announce>[1]) => act(() => announce(text, options));

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the announcer', () => {
  it('is one polite, atomic status region, empty at first; the first announcement is said at once', () => {
    const region = renderAnnouncer();
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    expect(region.textContent).toBe('');
    say('Marked 3 conversations as read');
    expect(region.textContent).toBe('Marked 3 conversations as read');
  });

  it('says nothing more within the gap; what came in it is said together when the gap ends', () => {
    const region = renderAnnouncer();
    say('one');
    advance(200);
    say('two');
    say('three');
    expect(region.textContent).toBe('one');
    advance(ANNOUNCE_GAP_MS - 201);
    expect(region.textContent).toBe('one');
    advance(1);
    expect(region.textContent).toBe('two. three');
    // After a quiet gap, the next is said at once again.
    advance(ANNOUNCE_GAP_MS);
    say('four');
    expect(region.textContent).toBe('four');
  });

  it('a burst is never read out: announcements of one kind become one, and at most three parts (the newest) are said', () => {
    const region = renderAnnouncer();
    say('first');
    const many = (texts: string[]) => `${texts.length} new messages, the latest from ${texts[texts.length - 1]}`;
    for (const who of ['Ada', 'Bo', 'Cy', 'Di']) say(who, { kind: 'message', many });
    advance(ANNOUNCE_GAP_MS);
    expect(region.textContent).toBe('4 new messages, the latest from Di');

    for (const text of ['a', 'b', 'c', 'd', 'e']) say(text);
    advance(ANNOUNCE_GAP_MS);
    expect(region.textContent).toBe('c. d. e');
  });

  it('the same words said again are a new node (so they are spoken again)', () => {
    const region = renderAnnouncer();
    say('Undone');
    const first = region.firstElementChild;
    advance(ANNOUNCE_GAP_MS);
    say('Undone');
    expect(region.textContent).toBe('Undone');
    expect(region.firstElementChild).not.toBe(first);
  });

  it('clears what it said after a while, and says nothing for blank text', () => {
    const region = renderAnnouncer();
    say('   ');
    expect(region.textContent).toBe('');
    say('Saved');
    advance(ANNOUNCE_CLEAR_MS - 1);
    expect(region.textContent).toBe('Saved');
    advance(1);
    expect(region.textContent).toBe('');
  });

  it('says names without bidi or control characters, on one line', () => {
    const region = renderAnnouncer();
    say('New message from \u202Eexe.gpj\u202C in\n#payments');
    expect(region.textContent).toBe('New message from exe.gpj in #payments');
  });

  it('a provider inside another adds no second region', () => {
    renderAnnouncer(
      <AnnouncerProvider>
        <p>inner</p>
      </AnnouncerProvider>,
    );
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });
});

describe('useAnnounceConnection', () => {
  function renderConnection(initial: LiveStatus) {
    const wrapper = ({ children }: { children: ReactNode }) => <AnnouncerProvider>{children}</AnnouncerProvider>;
    const hook = renderHook(({ status }: { status: LiveStatus }) => useAnnounceConnection(status), { wrapper, initialProps: { status: initial } });
    return { region: screen.getByRole('status'), set: (status: LiveStatus) => hook.rerender({ status }) };
  }

  it('says nothing while connecting at start-up, then says a drop and the return', () => {
    const { region, set } = renderConnection('disconnected');
    set('connecting');
    set('connected');
    expect(region.textContent).toBe('');
    set('error');
    expect(region.textContent).toBe(CONNECTION_LOST);
    set('connecting');
    advance(ANNOUNCE_GAP_MS);
    expect(region.textContent).toBe(CONNECTION_LOST);
    set('connected');
    expect(region.textContent).toBe(CONNECTION_RESTORED);
  });

  it('a drop and return within one gap say only the latest', () => {
    const { region, set } = renderConnection('connected');
    set('error');
    expect(region.textContent).toBe(CONNECTION_LOST);
    set('connecting');
    set('connected');
    advance(ANNOUNCE_GAP_MS);
    expect(region.textContent).toBe(CONNECTION_RESTORED);
  });

  it('says when reconnecting gave up', () => {
    const { region, set } = renderConnection('connected');
    set('error');
    advance(ANNOUNCE_GAP_MS);
    set('failed');
    expect(region.textContent).toBe(CONNECTION_FAILED);
  });

  it('signing out is no drop', () => {
    const { region, set } = renderConnection('connected');
    set('unauthenticated');
    set('disconnected');
    advance(ANNOUNCE_GAP_MS);
    expect(region.textContent).toBe('');
  });
});
