/**
 * Each member's views as an aggregate over the database handle (issue 15 §1), on SQLite and PostgreSQL alike:
 * custom views (focus inboxes) and the member's settings of the built-in ones (SPEC §4.9). Every change commits
 * with the events that tell the member's other tabs and servers, in one transaction (`events.append`).
 */
import { BUILTIN_VIEWS, byPosition, type BuiltinView, type CustomView } from '../../model/views';
import type { Db } from './db';
import type { Migration } from './migrate';
import {
  applyBuiltinSettings,
  type BuiltinViewSetting,
  type CustomViewPatch,
  type EventBuilder,
  type MemberEvent,
  type MemberViews,
  type NewCustomView,
  type StoredEvent,
  type Written,
} from './types';

export const VIEW_RECORDS_MIGRATION: Migration = {
  version: 5,
  name: 'custom views, built-in view settings',
  // SQLite's tables come with the SQLite store's migration 3.
  sqlite: '',
  postgres: `
    CREATE TABLE custom_views (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
      label TEXT NOT NULL, filters TEXT NOT NULL DEFAULT '[]',
      combinator TEXT CHECK (combinator IN ('and', 'or')),
      parent_view_id TEXT NOT NULL, position INTEGER,
      is_visible INTEGER NOT NULL DEFAULT 1 CHECK (is_visible IN (0, 1)),
      created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
      PRIMARY KEY (workspace_id, user_id, id)
    );
    CREATE TABLE builtin_view_settings (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, view_id TEXT NOT NULL,
      is_visible INTEGER NOT NULL CHECK (is_visible IN (0, 1)), position INTEGER,
      PRIMARY KEY (workspace_id, user_id, view_id)
    );`,
};

/** Appends a change's events in its transaction (the event log: store/eventLog.ts on the handle). */
export interface EventAppender {
  append(tx: Db, workspaceId: string, events: MemberEvent[], at: number): Promise<Array<StoredEvent & { userId: string }>>;
}

interface CustomViewRow {
  id: string;
  label: string;
  filters: string;
  combinator: 'and' | 'or' | null;
  parent_view_id: string;
  position: number | null;
  is_visible: number;
  created_at: number;
  updated_at: number;
}

function toCustomView(row: CustomViewRow): CustomView {
  const view: CustomView = {
    id: row.id,
    label: row.label,
    filters: JSON.parse(row.filters) as CustomView['filters'],
    parentViewId: row.parent_view_id,
    isVisible: row.is_visible === 1,
    isCustom: true,
    created_by: 'user',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.combinator) view.combinator = row.combinator;
  if (row.position !== null) view.position = row.position;
  return view;
}

export class ViewRecords {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  private async customViews(q: Db, workspaceId: string, userId: string, parentViewId?: string): Promise<CustomView[]> {
    const rows =
      parentViewId === undefined
        ? await q.all<CustomViewRow>(`SELECT * FROM custom_views WHERE workspace_id = ? AND user_id = ? ORDER BY id`, [workspaceId, userId])
        : await q.all<CustomViewRow>(`SELECT * FROM custom_views WHERE workspace_id = ? AND user_id = ? AND parent_view_id = ? ORDER BY id`, [
            workspaceId,
            userId,
            parentViewId,
          ]);
    return rows.map(toCustomView).sort(byPosition);
  }

  private async customView(q: Db, workspaceId: string, userId: string, id: string): Promise<CustomView | null> {
    const row = await q.get<CustomViewRow>(`SELECT * FROM custom_views WHERE workspace_id = ? AND user_id = ? AND id = ?`, [workspaceId, userId, id]);
    return row ? toCustomView(row) : null;
  }

  private async builtinSettings(q: Db, workspaceId: string, userId: string): Promise<BuiltinViewSetting[]> {
    const rows = await q.all<{ view_id: string; is_visible: number; position: number | null }>(
      `SELECT view_id, is_visible, position FROM builtin_view_settings WHERE workspace_id = ? AND user_id = ? ORDER BY view_id`,
      [workspaceId, userId],
    );
    return rows.map((row) => ({ viewId: row.view_id, isVisible: row.is_visible === 1, ...(row.position !== null ? { position: row.position } : {}) }));
  }

  private async memberViews(q: Db, workspaceId: string, userId: string): Promise<MemberViews> {
    return { builtin: applyBuiltinSettings(await this.builtinSettings(q, workspaceId, userId)), custom: await this.customViews(q, workspaceId, userId) };
  }

  /** SPEC §4.9: a new sub-view's position is the count of the page's built-in and custom sub-views, plus one. */
  private async appendPosition(q: Db, workspaceId: string, userId: string, parentViewId: string, exceptId?: string): Promise<number> {
    const builtin = BUILTIN_VIEWS.filter((v) => v.parentViewId === parentViewId).length;
    const row = await q.get<{ n: number }>(`SELECT count(*) AS n FROM custom_views WHERE workspace_id = ? AND user_id = ? AND parent_view_id = ? AND id != ?`, [
      workspaceId,
      userId,
      parentViewId,
      exceptId ?? '',
    ]);
    return builtin + row!.n + 1;
  }

  listCustomViews(workspaceId: string, userId: string, parentViewId?: string): Promise<CustomView[]> {
    return this.customViews(this.db, workspaceId, userId, parentViewId);
  }

  getCustomView(workspaceId: string, userId: string, id: string): Promise<CustomView | null> {
    return this.customView(this.db, workspaceId, userId, id);
  }

  createCustomView(workspaceId: string, userId: string, view: NewCustomView, at: number, build: EventBuilder<CustomView>): Promise<Written<CustomView>> {
    return this.db.transaction(async (tx) => {
      const position = view.position === undefined ? await this.appendPosition(tx, workspaceId, userId, view.parentViewId) : view.position;
      await tx.run(
        `INSERT INTO custom_views (workspace_id, user_id, id, label, filters, combinator, parent_view_id, position, is_visible, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          workspaceId,
          userId,
          view.id,
          view.label,
          JSON.stringify(view.filters),
          view.combinator ?? null,
          view.parentViewId,
          position,
          view.isVisible ? 1 : 0,
          at,
          at,
        ],
      );
      const result = (await this.customView(tx, workspaceId, userId, view.id))!;
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }

  updateCustomView(
    workspaceId: string,
    userId: string,
    id: string,
    patch: CustomViewPatch,
    at: number,
    build: EventBuilder<CustomView>,
  ): Promise<Written<CustomView> | null> {
    return this.db.transaction(async (tx) => {
      const current = await this.customView(tx, workspaceId, userId, id);
      if (!current) return null;
      const parentViewId = patch.parentViewId ?? current.parentViewId;
      let position: number | null = current.position ?? null;
      if (patch.position !== undefined) position = patch.position;
      else if (parentViewId !== current.parentViewId) position = await this.appendPosition(tx, workspaceId, userId, parentViewId, id);
      const isVisible = patch.isVisible === 'toggle' ? !current.isVisible : (patch.isVisible ?? current.isVisible);
      await tx.run(
        `UPDATE custom_views SET label = ?, filters = ?, combinator = ?, parent_view_id = ?, position = ?, is_visible = ?, updated_at = ?
         WHERE workspace_id = ? AND user_id = ? AND id = ?`,
        [
          patch.label ?? current.label,
          JSON.stringify(patch.filters ?? current.filters),
          patch.combinator ?? current.combinator ?? null,
          parentViewId,
          position,
          isVisible ? 1 : 0,
          at,
          workspaceId,
          userId,
          id,
        ],
      );
      const result = (await this.customView(tx, workspaceId, userId, id))!;
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }

  deleteCustomView(workspaceId: string, userId: string, id: string, at: number, build: EventBuilder<string>): Promise<Written<string> | null> {
    return this.db.transaction(async (tx) => {
      const changes = await tx.run(`DELETE FROM custom_views WHERE workspace_id = ? AND user_id = ? AND id = ?`, [workspaceId, userId, id]);
      if (changes === 0) return null;
      return { result: id, events: await this.events.append(tx, workspaceId, build(id), at) };
    });
  }

  reorderCustomViews(
    workspaceId: string,
    userId: string,
    positions: ReadonlyArray<{ id: string; position: number }>,
    at: number,
    build: EventBuilder<MemberViews>,
  ): Promise<Written<MemberViews> | null> {
    return this.db.transaction(async (tx) => {
      // Every id first: one that is not the member's changes nothing.
      for (const { id } of positions)
        if ((await tx.get(`SELECT 1 AS found FROM custom_views WHERE workspace_id = ? AND user_id = ? AND id = ?`, [workspaceId, userId, id])) === undefined)
          return null;
      for (const { id, position } of positions)
        await tx.run(`UPDATE custom_views SET position = ?, updated_at = ? WHERE workspace_id = ? AND user_id = ? AND id = ?`, [
          position,
          at,
          workspaceId,
          userId,
          id,
        ]);
      const result = await this.memberViews(tx, workspaceId, userId);
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }

  listBuiltinViewSettings(workspaceId: string, userId: string): Promise<BuiltinViewSetting[]> {
    return this.builtinSettings(this.db, workspaceId, userId);
  }

  async setBuiltinVisibility(
    workspaceId: string,
    userId: string,
    viewId: string,
    isVisible: boolean | 'toggle',
    at: number,
    build: EventBuilder<BuiltinView>,
  ): Promise<Written<BuiltinView> | null> {
    const definition = BUILTIN_VIEWS.find((v) => v.id === viewId);
    if (!definition) return null;
    return this.db.transaction(async (tx) => {
      const before = applyBuiltinSettings(await this.builtinSettings(tx, workspaceId, userId)).find((v) => v.id === viewId)!;
      const visible = isVisible === 'toggle' ? !before.isVisible : isVisible;
      await tx.run(
        `INSERT INTO builtin_view_settings (workspace_id, user_id, view_id, is_visible, position) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id, user_id, view_id) DO UPDATE SET is_visible = excluded.is_visible`,
        [workspaceId, userId, viewId, visible ? 1 : 0, definition.position ?? null],
      );
      const result = applyBuiltinSettings(await this.builtinSettings(tx, workspaceId, userId)).find((v) => v.id === viewId)!;
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }

  initializeBuiltinViews(
    workspaceId: string,
    userId: string,
    at: number,
    build: EventBuilder<MemberViews & { created: number }>,
  ): Promise<Written<MemberViews & { created: number }>> {
    return this.db.transaction(async (tx) => {
      let created = 0;
      for (const view of BUILTIN_VIEWS)
        created += await tx.run(
          `INSERT INTO builtin_view_settings (workspace_id, user_id, view_id, is_visible, position) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          [workspaceId, userId, view.id, view.isVisible ? 1 : 0, view.position ?? null],
        );
      const result = { ...(await this.memberViews(tx, workspaceId, userId)), created };
      return { result, events: await this.events.append(tx, workspaceId, build(result), at) };
    });
  }
}
