/** Desktop notifications (SPEC §4.3, §4.15) with the browser's Notification replaced at its interface. */
import { act, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_GAP_MS, AnnouncerProvider } from '../../src/ui/components/Announcer';
import { useNotifications } from '../../src/ui/hooks/useNotifications';
import { USER_ALICE, USER_ME } from '../fixtures/events';
import { createFakeEngine, summary } from './fakeEngine';

class FakeNotification {
  static permission: NotificationPermission = 'default';
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers();
  FakeNotification.permission = 'default';
  FakeNotification.shown = [];
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal('Notification', FakeNotification);
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const message = { conversationId: 'D1', title: 'Dana Scully', author: 'Dana Scully', body: 'Can you approve this?' };

describe('useNotifications', () => {
  it('asks for permission 2 s after start when it is undecided, and not before', async () => {
    createFakeEngine();
    renderHook(() => useNotifications(() => {}));
    await act(async () => vi.advanceTimersByTime(1_999));
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
  });

  it('does not ask again when permission was decided', async () => {
    FakeNotification.permission = 'denied';
    createFakeEngine();
    renderHook(() => useNotifications(() => {}));
    await act(async () => vi.advanceTimersByTime(5_000));
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
  });

  it('notifies only while the page is hidden and permission is granted; closes after 5 s; a click opens the conversation', async () => {
    FakeNotification.permission = 'granted';
    const engine = createFakeEngine();
    const open = vi.fn();
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => {});
    renderHook(() => useNotifications(open));
    await act(async () => vi.advanceTimersByTime(10));

    act(() => engine.streams.incoming.next(message));
    expect(FakeNotification.shown).toHaveLength(0); // visible page: no notification

    visibility = 'hidden';
    act(() => engine.streams.incoming.next(message));
    expect(FakeNotification.shown).toHaveLength(1);
    const [shown] = FakeNotification.shown;
    expect(shown!.title).toBe('Dana Scully in Dana Scully');
    expect(shown!.options.body).toBe('Can you approve this?');

    act(() => engine.streams.incoming.next(message));
    expect(FakeNotification.shown).toHaveLength(2);
    await act(async () => vi.advanceTimersByTime(5_000));
    expect(FakeNotification.shown.every((n) => n.closed)).toBe(true);

    act(() => engine.streams.incoming.next(message));
    act(() => FakeNotification.shown[2]!.onclick?.());
    expect(focus).toHaveBeenCalled();
    expect(open).toHaveBeenCalledWith('D1');
  });

  it('stays silent without permission even when hidden', async () => {
    FakeNotification.permission = 'denied';
    visibility = 'hidden';
    const engine = createFakeEngine();
    renderHook(() => useNotifications(() => {}));
    act(() => engine.streams.incoming.next(message));
    expect(FakeNotification.shown).toHaveLength(0);
  });

  it('a hostile name cannot reverse the title: bidi and control characters are removed', async () => {
    FakeNotification.permission = 'granted';
    visibility = 'hidden';
    const engine = createFakeEngine();
    renderHook(() => useNotifications(() => {}));
    await act(async () => vi.advanceTimersByTime(10));
    // An RLO in a name would reverse what follows it in the system's notification ('gpj.exe' reads 'exe.jpg').
    act(() => engine.streams.incoming.next({ ...message, author: 'Mallory \u202Egpj.exe', title: 'Dana\u2066, Bob\u2069\n\u0007' }));
    expect(FakeNotification.shown[0]!.title).toBe('Mallory gpj.exe in Dana, Bob');
  });
});

describe('useNotifications: the announcer (issue 13 §3)', () => {
  const PAYMENTS = summary({ id: 'C_PAY', name: 'payments', type: 'channel' });
  const DM = summary({ id: 'D_ALICE', name: 'dm', type: 'dm', dm_user: USER_ALICE.id, member_ids: [USER_ME.id, USER_ALICE.id] });
  const wrapper = ({ children }: { children: ReactNode }) => <AnnouncerProvider>{children}</AnnouncerProvider>;
  const flush = () => act(async () => vi.advanceTimersByTime(0));

  function setup() {
    const engine = createFakeEngine({ conversations: [PAYMENTS, DM], users: [USER_ME, USER_ALICE], me: USER_ME.id });
    renderHook(() => useNotifications(() => {}), { wrapper });
    return { engine, region: screen.getByRole('status') };
  }

  it("says a new message while the page is visible: 'New message from Dana Reyes in #payments'", async () => {
    const { engine, region } = setup();
    await flush();
    act(() => engine.streams.incoming.next({ conversationId: 'C_PAY', title: 'payments', author: 'Dana Reyes', body: 'Refund is stuck' }));
    await flush();
    expect(region.textContent).toBe('New message from Dana Reyes in #payments');
  });

  it('a direct message names only its author', async () => {
    const { engine, region } = setup();
    await flush();
    act(() => engine.streams.incoming.next({ conversationId: 'D_ALICE', title: 'Alice Adams', author: 'Alice Adams', body: 'hi' }));
    await flush();
    expect(region.textContent).toBe('New message from Alice Adams');
  });

  it('a burst is said as one: the count and the latest', async () => {
    const { engine, region } = setup();
    await flush();
    act(() => engine.streams.incoming.next({ conversationId: 'C_PAY', title: 'payments', author: 'Dana Reyes', body: '1' }));
    await flush();
    for (const author of ['Sam Lee', 'Kim Park', 'Alice Adams'])
      act(() =>
        engine.streams.incoming.next({
          conversationId: author === 'Alice Adams' ? 'D_ALICE' : 'C_PAY',
          title: author === 'Alice Adams' ? 'Alice Adams' : 'payments',
          author,
          body: 'x',
        }),
      );
    await flush();
    expect(region.textContent).toBe('New message from Dana Reyes in #payments');
    await act(async () => vi.advanceTimersByTime(ANNOUNCE_GAP_MS));
    expect(region.textContent).toBe('3 new messages, the latest from Alice Adams');
  });

  it('says nothing while the page is hidden (the desktop notification speaks then)', async () => {
    visibility = 'hidden';
    const { engine, region } = setup();
    await flush();
    act(() => engine.streams.incoming.next({ conversationId: 'C_PAY', title: 'payments', author: 'Dana Reyes', body: 'x' }));
    await flush();
    expect(region.textContent).toBe('');
  });
});
