/**
 * What the list screens read, derived from the store and re-sent when it changes: a window of a
 * view in a layout (never the whole list, DESIGN §3), the tab counts, the list of views, and the
 * Ask AI start screen's unread summary.
 */
import { BehaviorSubject, auditTime, combineLatest, defer, distinctUntilChanged, finalize, map, startWith, tap, type Observable } from 'rxjs';
import type { UnreadSummary } from '../../model/ai';
import { PREVIEW_LENGTH } from '../../model/constants';
import { FLAT_LAYOUT, type Layout } from '../../model/layout';
import type { ViewWindow } from '../../model/rows';
import type { Core } from './core';
import type { ViewCounts } from './types';

interface WindowRange {
  viewId: string;
  start: number;
  end: number;
  layout: Layout;
  previewLength: number;
}

/** The inbox in AI order without headers or a query: its group sizes are the unread counts per category. */
const AI_SUMMARY_LAYOUT: Layout = { order: 'ai', headers: false, collapsed: [], query: '' };

export function createWindows(core: Core) {
  const { store, storeVersion$, scheduler } = core;

  /**
   * Each list's range, by the page's key, with how many subscriptions read it. A list that remounts
   * subscribes again under the same key before its old subscription's teardown reaches the worker
   * (both cross Comlink asynchronously), so a range is dropped only when its last reader leaves:
   * dropping it on the first teardown orphaned the new reader, and later ranges (a filter, a
   * scroll) never reached it.
   */
  const windowRanges = new Map<string, { range: BehaviorSubject<WindowRange>; readers: number }>();
  const rangeOf = (key: string) => {
    let entry = windowRanges.get(key);
    if (!entry)
      windowRanges.set(
        key,
        (entry = {
          range: new BehaviorSubject<WindowRange>({ viewId: 'inbox', start: 0, end: 0, layout: FLAT_LAYOUT, previewLength: PREVIEW_LENGTH }),
          readers: 0,
        }),
      );
    return entry;
  };

  /** A list window: slots [start, end) of a view in a layout, re-sent when the view, the layout or the range changes. */
  function viewWindow(key: string): Observable<ViewWindow> {
    return defer(() => {
      const entry = rangeOf(key);
      entry.readers += 1;
      return combineLatest([entry.range, storeVersion$.pipe(auditTime(16, scheduler), startWith(store.version))]).pipe(
        map(([range]) => ({ range, window: store.window(range.viewId, range.start, range.end, range.layout, range.previewLength) })),
        // The same range and an unchanged index: nothing to send. Another range (a new filter text, another
        // order) always sends, even when its window happens to have the same size and version.
        distinctUntilChanged(
          (a, b) =>
            a.range === b.range &&
            a.window.version === b.window.version &&
            a.window.items.length === b.window.items.length &&
            a.window.total === b.window.total,
        ),
        map(({ window }) => window),
        tap((window) => {
          if (window.items.length) core.windowServed$.next();
        }),
        finalize(() => {
          entry.readers -= 1;
          if (entry.readers === 0 && windowRanges.get(key) === entry) windowRanges.delete(key);
        }),
      );
    });
  }

  function setWindow(key: string, viewId: string, start: number, end: number, options: { layout?: Layout; previewLength?: number } = {}): void {
    const { range } = rangeOf(key);
    const v = range.value;
    const layout = options.layout ?? FLAT_LAYOUT;
    const previewLength = options.previewLength ?? PREVIEW_LENGTH;
    const sameLayout = JSON.stringify(v.layout) === JSON.stringify(layout);
    if (v.viewId !== viewId || v.start !== start || v.end !== end || v.previewLength !== previewLength || !sameLayout) {
      range.next({ viewId, start: Math.max(0, start), end: Math.max(0, end), layout, previewLength });
    }
  }

  /** Per built-in view: conversations, and those with unread messages (the tab badges). */
  const viewCounts$: Observable<ViewCounts> = storeVersion$.pipe(
    auditTime(50, scheduler),
    startWith(0),
    map(() => ({ total: store.counts(), unread: store.unreadCounts() })),
  );

  // Only a change to the views themselves re-sends the list (not every live event).
  const views$ = storeVersion$.pipe(
    map(() => store.viewsVersion),
    distinctUntilChanged(),
    map(() => store.listViews()),
  );

  /** The unread conversations of the inbox by AI category (the Ask AI start screen's summary). */
  const unreadSummary$ = storeVersion$.pipe(
    map((): UnreadSummary => {
      const sizes = store.indexFor('inbox', AI_SUMMARY_LAYOUT)?.groupSizes ?? [0, 0, 0, 0];
      return { total: sizes.reduce((a, b) => a + b, 0), urgent: sizes[0] ?? 0, can_wait: sizes[1] ?? 0, fyi: sizes[2] ?? 0 };
    }),
    distinctUntilChanged((a, b) => a.total === b.total && a.urgent === b.urgent && a.can_wait === b.can_wait && a.fyi === b.fyi),
  );

  return {
    commands: { setWindow },
    streams: {
      viewWindow,
      viewCounts: () => viewCounts$,
      views: () => views$,
      unreadSummary: () => unreadSummary$,
    },
  };
}
