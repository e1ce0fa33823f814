/**
 * The worker's state: every conversation summary (a Map keyed by id, one entry replaced per
 * change), the users map, and the view indexes derived from them. Applying one live event
 * costs O(views × log n), never a copy of the collection.
 */
import type { Logger } from '../model/logger';
import { PREVIEW_LENGTH } from '../model/constants';
import { toRow, type ViewWindow } from '../model/rows';
import type { ConversationSummary, ConversationUpdateData, MessageUpdateData, UserData } from '../model/types';
import { reduceSummary } from './reduce';
import { BUILTIN_VIEWS, ViewIndex } from './views';

export class EngineStore {
  readonly conversations = new Map<string, ConversationSummary>();
  readonly users = new Map<string, UserData>();
  readonly views = new Map<string, ViewIndex>();
  me = '';
  /** Bumped on every change the page may need to see. */
  version = 0;

  constructor(private readonly log: Pick<Logger, 'warn'>) {
    for (const definition of BUILTIN_VIEWS) {
      this.views.set(definition.id, new ViewIndex(definition, (op) => this.log.warn(`Unknown filter operator ${op}: it matches everything`)));
    }
  }

  clear(): void {
    this.conversations.clear();
    this.users.clear();
    for (const view of this.views.values()) view.rebuild([]);
    this.me = '';
    this.version += 1;
  }

  mergeUsers(users: Record<string, UserData> | undefined): void {
    if (!users) return;
    for (const [id, user] of Object.entries(users)) this.users.set(id, user);
  }

  /** Replaces everything with a snapshot. */
  replaceAll(conversations: Iterable<ConversationSummary>, users?: Record<string, UserData>): void {
    this.conversations.clear();
    for (const c of conversations) this.conversations.set(c.id, c);
    this.mergeUsers(users);
    for (const view of this.views.values()) view.rebuild(this.conversations.values());
    this.version += 1;
  }

  /** Adds (or replaces) a page of conversations, filing each in every view. */
  addMany(conversations: Iterable<ConversationSummary>): void {
    for (const c of conversations) {
      this.conversations.set(c.id, c);
      for (const view of this.views.values()) view.update(c.id, c);
    }
    this.version += 1;
  }

  /** Replaces one conversation and re-files it in every view. */
  put(id: string, next: ConversationSummary | undefined): boolean {
    const previous = this.conversations.get(id);
    if (next === previous) return false;
    if (next) this.conversations.set(id, next);
    else this.conversations.delete(id);
    for (const view of this.views.values()) view.update(id, next);
    this.version += 1;
    return true;
  }

  applyMessageUpdate(data: MessageUpdateData): boolean {
    this.mergeUsers(data.users);
    const id = data.conversation_id;
    return this.put(id, reduceSummary(this.conversations.get(id), data, this.me));
  }

  applyConversationUpdate(data: ConversationUpdateData): boolean {
    const id = data.conversation_id ?? data.conversation?.id;
    if (!id || !data.conversation) return false;
    const previous = this.conversations.get(id);
    if (!previous) return false;
    // A null field is a removal (JSON has no undefined): a removed label clears its AI fields.
    const next: Record<string, unknown> = { ...previous };
    for (const [key, value] of Object.entries(data.conversation)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    return this.put(id, next as unknown as ConversationSummary);
  }

  /** The id at a position of a view, or null. */
  idAt(viewId: string, index: number): string | null {
    return this.views.get(viewId)?.ids(index, index + 1)[0] ?? null;
  }

  indexOf(viewId: string, id: string): number {
    return this.views.get(viewId)?.indexOf(id) ?? -1;
  }

  window(viewId: string, start: number, end: number, previewLength = PREVIEW_LENGTH): ViewWindow {
    const view = this.views.get(viewId);
    if (!view) return { viewId, start, total: 0, rows: [], version: this.version };
    const rows = [];
    for (const id of view.ids(start, end)) {
      const c = this.conversations.get(id);
      if (c) rows.push(toRow(c, this.users, this.me, previewLength));
    }
    return { viewId, start, total: view.size, rows, version: view.version };
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [id, view] of this.views) out[id] = view.size;
    return out;
  }
}
