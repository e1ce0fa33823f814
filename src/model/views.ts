/**
 * Views (SPEC §3 custom view, §2.1 sub-views, §7.6): the built-in sub-views of each page and
 * the shape of a member's custom views (focus inboxes). The server stores them, the worker
 * keeps an index per view; both read these definitions.
 */
import { MISSING_VIEW_POSITION } from './constants';
import type { FilterRule } from './types';

/** The pages that hold sub-views (SPEC §2.1). */
export const PAGES = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'conversations', label: 'Conversations' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

export interface ViewBase {
  id: string;
  label: string;
  /** The rules, combined with AND (default) or OR. */
  filters: FilterRule[];
  combinator?: 'and' | 'or';
  /** The page the view belongs to. */
  parentViewId: string;
  position?: number;
  isVisible: boolean;
}

export interface BuiltinView extends ViewBase {
  isCustom: false;
}

export interface CustomView extends ViewBase {
  isCustom: true;
  created_by: 'user';
  createdAt?: number;
  updatedAt?: number;
}

export type View = BuiltinView | CustomView;

/** The built-in sub-views of SPEC §2.1, as rules through the same engine as custom views. */
export const BUILTIN_VIEWS: readonly BuiltinView[] = [
  {
    id: 'inbox',
    label: 'Inbox',
    parentViewId: 'inbox',
    position: 0,
    isVisible: true,
    isCustom: false,
    filters: [{ field: 'unread_count', operator: 'gt', value: 0 }],
  },
  { id: 'conversations', label: 'All', parentViewId: 'conversations', position: 0, isVisible: true, isCustom: false, filters: [] },
  {
    id: 'dms',
    label: 'DMs',
    parentViewId: 'conversations',
    position: 1,
    isVisible: true,
    isCustom: false,
    filters: [{ field: 'type', operator: 'eq', value: 'dm' }],
  },
  {
    id: 'channels',
    label: 'Channels',
    parentViewId: 'conversations',
    position: 2,
    isVisible: true,
    isCustom: false,
    filters: [{ field: 'type', operator: 'eq', value: 'channel' }],
  },
  {
    id: 'threads',
    label: 'Threads',
    parentViewId: 'conversations',
    position: 3,
    isVisible: true,
    isCustom: false,
    filters: [{ field: 'type', operator: 'eq', value: 'thread' }],
  },
];

/** SPEC §4.9: views of a page are ordered by position, a missing position counting as 999; ties by label. */
export function byPosition(a: ViewBase, b: ViewBase): number {
  const pa = a.position ?? MISSING_VIEW_POSITION;
  const pb = b.position ?? MISSING_VIEW_POSITION;
  return pa !== pb ? pa - pb : a.label.localeCompare(b.label);
}

/** A live change to a member's views, sent on the stream as a `view_update` event. */
export type ViewUpdateData = { action: 'upsert'; view: View } | { action: 'delete'; id: string } | { action: 'reset'; views: View[] };
