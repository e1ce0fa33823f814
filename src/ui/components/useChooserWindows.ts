/**
 * What a multi-select shows of its source (issue 14 §1): the first window of each query as the
 * member types (debounced, not on opening; the latest wins), the windows scrolled to later, how
 * many options there are in all, and the names of options seen or chosen (for the chips).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useObservable, useSubscription } from 'observable-hooks';
import { EMPTY, catchError, debounce, filter, from, map, switchMap, timer } from 'rxjs';
import type { MultiSelectOption, MultiSelectSource } from './MultiSelect';

/** Options asked for at once (the worker answers at most 50). */
export const WINDOW = 50;
/** Typing waits this long before searching. */
export const SEARCH_DEBOUNCE_MS = 120;

/** The matches of one query as far as they are known: their count, how many are selected, and the options loaded by index. */
export interface Matches {
  query: string;
  total: number;
  selected: number;
  items: ReadonlyMap<number, MultiSelectOption>;
}

export function useChooserWindows(source: MultiSelectSource, open: boolean, query: string, selected: RefObject<readonly string[]>, chipIds: readonly string[]) {
  const [matches, setMatches] = useState<Matches | null>(null);
  /** How many options there are in all (the answer to the empty query). */
  const [all, setAll] = useState<number | null>(null);
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  /** Windows asked for and not yet answered (by query and offset). */
  const asking = useRef(new Set<string>());

  const remember = useCallback((options: readonly MultiSelectOption[]) => {
    setNames((known) => {
      if (options.every((o) => known.get(o.id) === o.label)) return known;
      const next = new Map(known);
      for (const o of options) next.set(o.id, o.label);
      return next;
    });
  }, []);

  const first$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        filter(([isOpen]) => isOpen),
        debounce(([, q]) => timer(q.trim() ? SEARCH_DEBOUNCE_MS : 0)),
        switchMap(([, q, from_]) =>
          from(from_.window(q, 0, WINDOW, selected.current)).pipe(
            map((window) => ({ query: q, window })),
            catchError(() => EMPTY),
          ),
        ),
      ),
    [open, query, source],
  );
  useSubscription(first$, ({ query: q, window }) => {
    setMatches({ query: q, total: window.total, selected: window.selected, items: new Map(window.items.map((item, i) => [i, item])) });
    if (!q.trim()) setAll(window.total);
    remember(window.items);
  });

  // The names of the first chosen ones (an edited focus inbox shows them by name).
  const chipKey = chipIds.join('\u0000');
  useEffect(() => {
    const missing = chipKey ? chipKey.split('\u0000').filter((id) => !names.has(id)) : [];
    if (missing.length === 0) return;
    let live = true;
    void source.labels(missing).then(
      (options) => live && remember(options),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [chipKey, names, source, remember]);

  /** Asks for the window of the current matches from `offset` (once while it is awaited). */
  const loadFrom = useCallback(
    (offset: number) => {
      const q = matches?.query;
      if (q === undefined) return;
      const key = `${q}\u0000${offset}`;
      if (asking.current.has(key)) return;
      asking.current.add(key);
      void source.window(q, offset, WINDOW, selected.current).then(
        (window) => {
          asking.current.delete(key);
          setMatches((m) => {
            if (!m || m.query !== q) return m;
            const items = new Map(m.items);
            window.items.forEach((item, i) => items.set(offset + i, item));
            return { ...m, total: window.total, items };
          });
          remember(window.items);
        },
        () => asking.current.delete(key),
      );
    },
    [matches?.query, source, selected, remember],
  );

  return { matches, setMatches, all, names, asking, loadFrom };
}
