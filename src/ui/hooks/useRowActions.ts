/**
 * What a list page does to one conversation, with Cmd/Ctrl+Z to take the last of it back (SPEC §4.4, issue 13):
 * mark read and move to the next (Ctrl+E; one engine command), mark unread, set or clear the category. Each
 * says what it did in a toast; `runUndo` reverts the last one.
 */
import { useCallback, useRef } from 'react';
import { MARK_READ_GUARD_MS, TOAST_CATEGORY_MS } from '../../model/constants';
import type { Layout } from '../../model/layout';
import type { AiCategory } from '../../model/types';
import { useToast } from '../components/Toasts';
import { command } from '../engine';

const CATEGORY_LABEL: Record<AiCategory, string> = { urgent: 'Urgent', can_wait: 'Can Wait', fyi: 'FYI' };

interface Undo {
  run: () => Promise<unknown>;
}

export interface RowActionSources {
  /** The open conversation, or null. */
  openId: string | null;
  viewId: string;
  layout: Layout;
  /** The conversation an action is for: the open one, else the one under the cursor. */
  targetId: () => Promise<string | null>;
  setOpenId: (id: string | null) => void;
  setCursor: (index: number) => void;
}

export function useRowActions({ openId, viewId, layout, targetId, setOpenId, setCursor }: RowActionSources) {
  const toast = useToast();
  const undo = useRef<Undo | null>(null);
  const lastMarkRead = useRef(0);

  const markReadAndMove = useCallback(async () => {
    if (!openId) return;
    const started = Date.now();
    if (started - lastMarkRead.current < MARK_READ_GUARD_MS) return;
    lastMarkRead.current = started;
    const id = openId;
    // One command: the engine marks it read and answers the next to open (null: it was read, or the mark failed and the list reloads).
    const marked = await command((api) => api.markReadAndNext(viewId, id, layout));
    if (!marked) return;
    undo.current = { run: () => command((api) => api.markUnread(id, marked.lastRead || undefined)) };
    setOpenId(marked.next);
    setCursor(marked.index);
  }, [openId, viewId, layout, setOpenId, setCursor]);

  const setCategory = useCallback(
    async (category: AiCategory | null) => {
      const id = await targetId();
      if (!id) return;
      const facts = await command((api) => api.facts(id));
      if (!facts) return;
      const ok = await command((api) => api.setCategory(id, category));
      if (!ok) return toast('Failed to update category', TOAST_CATEGORY_MS);
      const previous = facts.category;
      undo.current = { run: () => command((api) => api.setCategory(id, previous)) };
      toast(category ? `${facts.name} marked as ${CATEGORY_LABEL[category]}` : `Removed category from ${facts.name}`, TOAST_CATEGORY_MS);
    },
    [targetId, toast],
  );

  const markUnread = useCallback(async () => {
    const id = await targetId();
    if (!id) return;
    const facts = await command((api) => api.facts(id));
    if (!facts) return;
    if (await command((api) => api.markUnread(id))) {
      undo.current = { run: () => command((api) => api.markRead(id)) };
      toast(`${facts.name} marked as unread`);
    } else toast('Failed to mark as unread');
  }, [targetId, toast]);

  const runUndo = useCallback(() => {
    const action = undo.current;
    undo.current = null;
    if (action) void action.run().then((ok) => toast(ok === false ? 'Could not undo' : 'Undone'));
  }, [toast]);

  return { markReadAndMove, setCategory, markUnread, runUndo };
}
