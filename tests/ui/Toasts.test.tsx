/** Toasts for feedback (SPEC §2.10, §9): 3000 ms by default, or the time given; at most three at once; each said by the page's announcer (issue 13 §3). */
import { act, render, screen, within } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_GAP_MS, AnnouncerProvider } from '../../src/ui/components/Announcer';
import { ToastProvider, useToast } from '../../src/ui/components/Toasts';

let show: ReturnType<typeof useToast> = () => {};

function Probe() {
  const toast = useToast();
  useEffect(() => {
    show = toast;
  }, [toast]);
  return <p>Page</p>;
}

function renderToasts() {
  render(
    <ToastProvider>
      <Probe />
    </ToastProvider>,
  );
  return screen.getByRole('region', { name: 'Notifications' });
}

const stack = () => within(screen.getByRole('region', { name: 'Notifications' }));
const texts = () =>
  stack()
    .queryAllByText(/.+/)
    .map((t) => t.textContent);
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Toasts (SPEC §2.10, §9)', () => {
  it("shows the text in the Notifications region, which is not live: the page's one announcer says it", () => {
    const region = renderToasts();
    expect(region.hasAttribute('aria-live')).toBe(false);
    expect(region.textContent).toBe('');
    act(() => show('Saved'));
    expect(within(region).getByText('Saved')).toBeTruthy();
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(region.contains(status)).toBe(false);
    expect(status.textContent).toBe('Saved');
    expect(screen.getByText('Page')).toBeTruthy();
  });

  it('every toast is announced, one after another when they come together', () => {
    renderToasts();
    act(() => {
      show('Alice Adams marked as Urgent');
      show('Undone');
    });
    expect(screen.getByRole('status').textContent).toBe('Alice Adams marked as Urgent');
    advance(ANNOUNCE_GAP_MS);
    expect(screen.getByRole('status').textContent).toBe('Undone');
  });

  it('uses an announcer already on the page rather than adding a second', () => {
    render(
      <AnnouncerProvider>
        <ToastProvider>
          <Probe />
        </ToastProvider>
      </AnnouncerProvider>,
    );
    act(() => show('Saved'));
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('Saved');
  });

  it('disappears after 3000 ms by default', () => {
    renderToasts();
    act(() => show('Saved'));
    advance(2999);
    expect(stack().getByText('Saved')).toBeTruthy();
    advance(1);
    expect(stack().queryByText('Saved')).toBeNull();
  });

  it.each([2500, 10_000])('disappears after the %i ms it is given', (ms) => {
    renderToasts();
    act(() => show('Alice Adams marked as Urgent', ms));
    advance(ms - 1);
    expect(stack().getByText('Alice Adams marked as Urgent')).toBeTruthy();
    advance(1);
    expect(stack().queryByText('Alice Adams marked as Urgent')).toBeNull();
  });

  it('shows at most three at once: a fourth pushes out the oldest', () => {
    renderToasts();
    act(() => {
      show('one');
      show('two');
      show('three');
    });
    expect(texts()).toEqual(['one', 'two', 'three']);
    act(() => show('four'));
    expect(texts()).toEqual(['two', 'three', 'four']);
    act(() => show('five'));
    expect(texts()).toEqual(['three', 'four', 'five']);
    advance(3000);
    expect(texts()).toEqual([]);
  });

  it('the same text twice shows twice', () => {
    renderToasts();
    act(() => {
      show('Undone');
      show('Undone');
    });
    expect(stack().getAllByText('Undone')).toHaveLength(2);
  });

  // BUG (src/ui/components/Toasts.tsx): ToastItem's timer effect depends on `onDone`, a new arrow
  // on every ToastProvider render, so showing or removing any toast restarts every other toast's
  // timer: a toast lives its full time again from the last change. Remove `.fails` once fixed.
  it('each toast keeps its own time when others come and go', () => {
    renderToasts();
    act(() => show('first'));
    advance(1000);
    act(() => show('second'));
    advance(2000);
    // 3000 ms after it was shown, the first is gone; the second has 1000 ms left.
    expect(texts()).toEqual(['second']);
    advance(1000);
    expect(texts()).toEqual([]);
  });
});
