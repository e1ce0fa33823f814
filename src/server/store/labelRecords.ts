/**
 * Each member's categories of their conversations (SPEC §4.3: set by hand, or by the AI) and the lessons the local
 * classifier learns from the hand-set ones, as an aggregate over the database handle (issue 15 §1), on SQLite and
 * PostgreSQL alike. A category commits with the events that tell the member's tabs and servers.
 */
import type { Lesson } from '../../model/ai';
import type { AiCategory } from '../../model/types';
import type { Db } from './db';
import type { Migration } from './migrate';
import { LESSON_CAP, type AiLabel, type EventBuilder, type Written } from './types';
import type { EventAppender } from './viewRecords';

export const LABEL_RECORDS_MIGRATION: Migration = {
  version: 7,
  name: 'labels, lessons',
  // SQLite's tables come with the SQLite store's migrations 1 and 6. DOUBLE PRECISION as SQLite's REAL: a label's
  // confidence read back equals the one written (a single-precision float would not, and a retry would count as news).
  sqlite: '',
  postgres: `
    CREATE TABLE labels (
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
      category TEXT NOT NULL CHECK (category IN ('urgent', 'can_wait', 'fyi')),
      source TEXT NOT NULL CHECK (source IN ('manual', 'ai')),
      reason TEXT, confidence DOUBLE PRECISION, triggers TEXT, updated_at BIGINT NOT NULL, basis_ts TEXT,
      PRIMARY KEY (workspace_id, user_id, conversation_id)
    );
    CREATE TABLE ai_lessons (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
      category TEXT NOT NULL CHECK (category IN ('urgent', 'can_wait', 'fyi')),
      lesson TEXT NOT NULL, created_at BIGINT NOT NULL
    );
    CREATE INDEX ai_lessons_by_member ON ai_lessons (workspace_id, user_id, id);`,
};

export type LabelInput = { category: AiCategory; source: 'manual' | 'ai'; reason?: string; confidence?: number } | null;

export class LabelRecords {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  /** Sets (or with null, removes) a conversation's category; the one it already has is no news (a retry appends nothing). */
  setLabel(workspaceId: string, userId: string, conversationId: string, label: LabelInput, at: number, build: EventBuilder<null>): Promise<Written<null>> {
    return this.db.transaction(async (tx) => {
      const before = await tx.get<{ category: string; source: string; reason: string | null; confidence: number | null; triggers: string | null }>(
        `SELECT category, source, reason, confidence, triggers FROM labels WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`,
        [workspaceId, userId, conversationId],
      );
      const same = label
        ? before?.category === label.category &&
          before.source === label.source &&
          before.reason === (label.reason ?? null) &&
          before.confidence === (label.confidence ?? null) &&
          before.triggers === null
        : before === undefined;
      if (same) return { result: null, events: [] };
      if (label)
        await tx.run(
          `INSERT INTO labels (workspace_id, user_id, conversation_id, category, source, reason, confidence, triggers, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)
           ON CONFLICT (workspace_id, user_id, conversation_id) DO UPDATE SET
             category = excluded.category, source = excluded.source, reason = excluded.reason,
             confidence = excluded.confidence, triggers = NULL, updated_at = excluded.updated_at`,
          [workspaceId, userId, conversationId, label.category, label.source, label.reason ?? null, label.confidence ?? null, at],
        );
      else await tx.run(`DELETE FROM labels WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [workspaceId, userId, conversationId]);
      return { result: null, events: await this.events.append(tx, workspaceId, build(null), at) };
    });
  }

  /** The AI's categories; a hand-set one is never overwritten. Answers those written. */
  setAiLabels(workspaceId: string, userId: string, labels: readonly AiLabel[], at: number, build: EventBuilder<AiLabel[]>): Promise<Written<AiLabel[]>> {
    return this.db.transaction(async (tx) => {
      const written: AiLabel[] = [];
      for (const l of labels) {
        const changed = await tx.run(
          `INSERT INTO labels (workspace_id, user_id, conversation_id, category, source, reason, confidence, triggers, updated_at, basis_ts)
           VALUES (?, ?, ?, ?, 'ai', ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, user_id, conversation_id) DO UPDATE SET
             category = excluded.category, source = 'ai', reason = excluded.reason, confidence = excluded.confidence,
             triggers = excluded.triggers, updated_at = excluded.updated_at, basis_ts = excluded.basis_ts
           WHERE labels.source <> 'manual'`,
          [workspaceId, userId, l.conversationId, l.category, l.reason, l.confidence, JSON.stringify(l.triggers), at, l.basisTs],
        );
        if (changed > 0) written.push(l);
      }
      return { result: written, events: await this.events.append(tx, workspaceId, build(written), at) };
    });
  }

  /** Keeps a lesson; past LESSON_CAP, the oldest go. */
  addLesson(workspaceId: string, userId: string, lesson: Lesson): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.run(`INSERT INTO ai_lessons (workspace_id, user_id, conversation_id, category, lesson, created_at) VALUES (?, ?, ?, ?, ?, ?)`, [
        workspaceId,
        userId,
        lesson.conversationId,
        lesson.category,
        JSON.stringify(lesson),
        lesson.at,
      ]);
      await tx.run(
        `DELETE FROM ai_lessons WHERE workspace_id = ? AND user_id = ? AND id NOT IN
           (SELECT id FROM ai_lessons WHERE workspace_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?)`,
        [workspaceId, userId, workspaceId, userId, LESSON_CAP],
      );
    });
  }

  async listLessons(workspaceId: string, userId: string): Promise<Lesson[]> {
    const rows = await this.db.all<{ lesson: string }>(`SELECT lesson FROM ai_lessons WHERE workspace_id = ? AND user_id = ? ORDER BY id ASC`, [
      workspaceId,
      userId,
    ]);
    return rows.map((r) => JSON.parse(r.lesson) as Lesson);
  }
}
