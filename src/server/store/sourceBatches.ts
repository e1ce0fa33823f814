/**
 * What a workspace's source writes in bulk, over the database handle (issue 15 §1), on SQLite and PostgreSQL alike:
 * the first import (the demo workspace's generation, a workspace's first sync) and the sync and live batches of a
 * source (Slack), applied as upserts whose counts, previews and read states are recomputed from what is stored,
 * so a batch fetched twice changes nothing. A batch commits with the events that tell of it, in one transaction.
 */
import { compareTs } from '../../model/ts';
import { isQuietSubtype } from '../../model/slack';
import type { Db } from './db';
import { COUNTS_AS_UNREAD, indexedBy, insertMany } from './sql';
import {
  baseSummary,
  contentJson,
  CONVERSATION_RECORD_COLUMNS,
  conversationValues,
  MESSAGE_COLUMNS,
  READABLE,
  readStates,
  resolvedOf,
  toMessage,
  type MessageRow,
} from './conversationRows';
import type { ConversationRecord, EventBuilder, ImportBatch, SourceBatch, SourceBatchResult, Written } from './types';
import type { EventAppender } from './viewRecords';
import type { User } from '../../model/types';

async function upsertUsers(tx: Db, workspaceId: string, users: readonly User[] | undefined): Promise<void> {
  // In id order: two batches naming the same people lock their rows in one order (no deadlock between servers).
  const unique = [...new Map((users ?? []).map((user) => [user.id, user])).values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await insertMany(
    tx,
    'users',
    ['workspace_id', 'id', 'data'],
    unique.map((user) => [workspaceId, user.id, JSON.stringify(user)]),
    'ON CONFLICT (workspace_id, id) DO UPDATE SET data = excluded.data',
  );
}

/** Per conversation of an import, its newest message, the newest that is not a system line (the preview), and how many. */
type Latest = Map<string, { ts: string; previewTs: string; user: string | null; text: string | null; count: number }>;
type ReadMark = NonNullable<ImportBatch['readMarks']>[number];

/**
 * What an import sets once its rows are in: each conversation's activity and preview, its thread parent, its
 * members' read marks (read to the latest message, unless a mark says otherwise) and unread counts. SQLite: a
 * statement per row (no round trips to save).
 */
async function settleImportByRow(tx: Db, ws: string, conversations: readonly ConversationRecord[], latest: Latest, marks: readonly ReadMark[]) {
  for (const [id, l] of latest)
    await tx.run(
      `UPDATE conversations SET latest_ts = ?, latest_user = ?, latest_text = ?, message_count = message_count + ? WHERE workspace_id = ? AND id = ?`,
      [l.ts, l.user, l.text, l.count, ws, id],
    );
  for (const c of conversations) {
    if (c.parent_conversation_id && c.thread_ts)
      await tx.run(
        `UPDATE conversations SET parent_user = (SELECT "user" FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?),
                parent_text = (SELECT ${READABLE} FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?)
         WHERE workspace_id = ? AND id = ?`,
        [ws, c.parent_conversation_id, c.thread_ts, ws, c.parent_conversation_id, c.thread_ts, ws, c.id],
      );
    await tx.run(
      `UPDATE conversation_members${indexedBy(tx, 'conversation_members_by_conversation')}
       SET last_read = COALESCE((SELECT latest_ts FROM conversations WHERE workspace_id = ? AND id = ?), '')
       WHERE workspace_id = ? AND conversation_id = ? AND last_read = ''`,
      [ws, c.id, ws, c.id],
    );
  }
  for (const mark of marks)
    await tx.run(
      `UPDATE conversation_members SET last_read = ?,
         unread_count = (SELECT count(*) FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts > ? AND ("user" IS NULL OR "user" != ?) AND ${COUNTS_AS_UNREAD})
       WHERE workspace_id = ? AND conversation_id = ? AND user_id = ?`,
      [mark.last_read, ws, mark.conversation_id, mark.last_read, mark.user_id, ws, mark.conversation_id, mark.user_id],
    );
}

/** The same on PostgreSQL in four statements, the rows passed as JSON: a round trip per row made the small demo's import take 5 s. */
async function settleImportInSets(tx: Db, ws: string, conversations: readonly ConversationRecord[], latest: Latest, marks: readonly ReadMark[]) {
  const ids = conversations.map((c) => c.id);
  await tx.run(
    `UPDATE conversations c SET latest_ts = v.ts, latest_user = v.u, latest_text = v.t, message_count = c.message_count + v.n
     FROM json_to_recordset(?::json) AS v(id text, ts text, u text, t text, n int) WHERE c.workspace_id = ? AND c.id = v.id`,
    [JSON.stringify([...latest].map(([id, l]) => ({ id, ts: l.ts, u: l.user, t: l.text, n: l.count }))), ws],
  );
  await tx.run(
    `UPDATE conversations c SET parent_user = (SELECT "user" FROM messages WHERE workspace_id = c.workspace_id AND conversation_id = c.parent_id AND ts = c.thread_ts),
       parent_text = (SELECT ${READABLE} FROM messages WHERE workspace_id = c.workspace_id AND conversation_id = c.parent_id AND ts = c.thread_ts)
     WHERE c.workspace_id = ? AND c.id = ANY(?::text[]) AND c.parent_id IS NOT NULL AND c.thread_ts IS NOT NULL`,
    [ws, ids],
  );
  await tx.run(
    `UPDATE conversation_members m SET last_read = COALESCE(c.latest_ts, '') FROM conversations c
     WHERE m.workspace_id = ? AND m.last_read = '' AND m.conversation_id = ANY(?::text[]) AND c.workspace_id = m.workspace_id AND c.id = m.conversation_id`,
    [ws, ids],
  );
  // The last mark of a member in a conversation wins, as when they are applied one by one.
  const last = [...new Map(marks.map((m) => [`${m.conversation_id}\u0000${m.user_id}`, m])).values()];
  await tx.run(
    `UPDATE conversation_members m SET last_read = v.r,
       unread_count = (SELECT count(*) FROM messages WHERE workspace_id = m.workspace_id AND conversation_id = m.conversation_id AND ts > v.r
         AND ("user" IS NULL OR "user" != m.user_id) AND ${COUNTS_AS_UNREAD})
     FROM json_to_recordset(?::json) AS v(c text, u text, r text) WHERE m.workspace_id = ? AND m.conversation_id = v.c AND m.user_id = v.u`,
    [JSON.stringify(last.map((m) => ({ c: m.conversation_id, u: m.user_id, r: m.last_read }))), ws],
  );
}

export class SourceBatches {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  /** A first import: everything new, every member read to the latest message unless a read mark says otherwise. */
  importBatch(workspaceId: string, batch: ImportBatch): Promise<void> {
    const ws = workspaceId;
    return this.db.transaction(async (tx) => {
      await upsertUsers(tx, ws, batch.users);
      // A conversation listed twice in one batch is stored once, as its last listing says (PostgreSQL refuses one
      // statement that upserts a row twice).
      const conversations = [...new Map((batch.conversations ?? []).map((c) => [c.id, c])).values()];
      await insertMany(
        tx,
        'conversations',
        [...CONVERSATION_RECORD_COLUMNS.split(', '), 'truth', 'message_count', 'latest_ts'],
        conversations.map((c) => [...conversationValues(ws, c), c.truth ?? null, 0, '']),
        `ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, type = excluded.type, is_private = excluded.is_private,
           dm_user = excluded.dm_user, member_ids = excluded.member_ids, parent_id = excluded.parent_id, thread_ts = excluded.thread_ts,
           truth = excluded.truth, parent_user = NULL, parent_text = NULL, message_count = 0, latest_ts = '', latest_user = NULL, latest_text = NULL`,
      );
      await insertMany(
        tx,
        'conversation_members',
        ['workspace_id', 'user_id', 'conversation_id', 'last_read', 'unread_count'],
        conversations.flatMap((c) => c.member_ids.map((member) => [ws, member, c.id, '', 0])),
        'ON CONFLICT DO NOTHING',
      );
      // The newest message sets the activity; the newest that is not a system line, the preview.
      const latest: Latest = new Map();
      const messages = batch.messages ?? [];
      await insertMany(
        tx,
        'messages',
        ['workspace_id', 'conversation_id', 'ts', '"user"', 'text', 'subtype', 'thread_ts', 'reply_count', 'client_msg_id', 'content', 'resolved_text'],
        messages.map((m) => [
          ws,
          m.conversation_id,
          m.ts,
          m.user ?? null,
          m.text,
          m.subtype ?? null,
          m.thread_ts ?? null,
          m.reply_count ?? 0,
          null,
          contentJson(m),
          resolvedOf(m),
        ]),
        'ON CONFLICT DO NOTHING',
      );
      for (const m of messages) {
        const resolved = resolvedOf(m);
        const seen = latest.get(m.conversation_id) ?? { ts: '', previewTs: '', user: null, text: null, count: 0 };
        latest.set(m.conversation_id, seen);
        seen.count += 1;
        if (compareTs(m.ts, seen.ts) > 0) seen.ts = m.ts;
        if (!isQuietSubtype(m.subtype) && compareTs(m.ts, seen.previewTs) > 0)
          Object.assign(seen, { previewTs: m.ts, user: m.user ?? null, text: resolved ?? m.text });
      }
      await (tx.dialect === 'postgres' ? settleImportInSets : settleImportByRow)(tx, ws, conversations, latest, batch.readMarks ?? []);
    });
  }

  /** A sync or live batch (upserts keyed by id and ts), with the events `build` makes of it. */
  applySourceBatch(workspaceId: string, batch: SourceBatch, at: number, build?: EventBuilder<SourceBatchResult>): Promise<Written<SourceBatchResult>> {
    const ws = workspaceId;
    return this.db.transaction(async (tx): Promise<Written<SourceBatchResult>> => {
      const result: SourceBatchResult = { inserted: [], edited: [], deleted: [], joined: [], left: [], marked: [], touched: new Map() };
      const touched = new Set<string>();
      // PostgreSQL: the batch's conversations are locked first, in one order, as a send locks its conversation
      // (conversationRecords.ts). A send and its own live echo, written by two servers or two requests at once,
      // then take turns, and whichever comes second finds the other's message stored.
      if (tx.dialect === 'postgres') {
        const ids = new Set<string>();
        for (const c of batch.conversations ?? []) ids.add(c.id);
        for (const m of batch.messages ?? []) ids.add(m.conversation_id);
        for (const d of batch.deletedMessages ?? []) ids.add(d.conversation_id);
        for (const mark of batch.readMarks ?? []) ids.add(mark.conversation_id);
        if (ids.size) await tx.all(`SELECT id FROM conversations WHERE workspace_id = ? AND id = ANY(?::text[]) ORDER BY id FOR UPDATE`, [ws, [...ids].sort()]);
      }
      await upsertUsers(tx, ws, batch.users);

      for (const c of batch.conversations ?? []) {
        const existing = await tx.get<{ name: string; member_ids: string }>(`SELECT name, member_ids FROM conversations WHERE workspace_id = ? AND id = ?`, [
          ws,
          c.id,
        ]);
        const values = conversationValues(ws, c);
        if (!existing) {
          await tx.run(
            `INSERT INTO conversations (${CONVERSATION_RECORD_COLUMNS}, message_count, latest_ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '')`,
            values,
          );
        } else {
          await tx.run(
            `UPDATE conversations SET name = ?, type = ?, is_private = ?, dm_user = ?, member_ids = ?, parent_id = ?, thread_ts = ? WHERE workspace_id = ? AND id = ?`,
            [...values.slice(2), ws, c.id],
          );
          if (existing.name !== c.name && tx.dialect === 'sqlite')
            await tx.run(`UPDATE conversation_names SET name = ? WHERE workspace_id = ? AND id = ?`, [c.name, ws, c.id]);
        }
        const before = new Set(existing ? (JSON.parse(existing.member_ids) as string[]) : []);
        const after = new Set(c.member_ids);
        for (const userId of after) {
          const added = await tx.run(
            `INSERT INTO conversation_members (workspace_id, user_id, conversation_id, last_read, unread_count) VALUES (?, ?, ?, '', 0) ON CONFLICT DO NOTHING`,
            [ws, userId, c.id],
          );
          if (added && existing && !before.has(userId)) result.joined.push({ conversation_id: c.id, user_id: userId });
        }
        for (const userId of before) {
          if (after.has(userId)) continue;
          await tx.run(`DELETE FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [ws, userId, c.id]);
          result.left.push({ conversation_id: c.id, user_id: userId });
        }
        touched.add(c.id);
      }

      const selectMessage = (conversationId: string, ts: string) =>
        tx.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [ws, conversationId, ts]);
      // SQLite's FTS5 table is kept by hand past the insert trigger; PostgreSQL's search column follows its row.
      const dropSearch = async (conversationId: string, ts: string) => {
        if (tx.dialect === 'sqlite')
          await tx.run(
            `DELETE FROM message_search WHERE rowid IN (SELECT rowid FROM message_search WHERE workspace_id = ? AND conversation_id = ? AND ts = ?)`,
            [ws, conversationId, ts],
          );
      };
      for (const m of batch.messages ?? []) {
        const row: MessageRow = {
          conversation_id: m.conversation_id,
          ts: m.ts,
          user: m.user ?? null,
          text: m.text,
          subtype: m.subtype ?? null,
          thread_ts: m.thread_ts ?? null,
          reply_count: m.reply_count ?? 0,
          client_msg_id: m.client_msg_id ?? null,
          content: contentJson(m),
          resolved_text: resolvedOf(m),
        };
        const stored = await selectMessage(m.conversation_id, m.ts);
        if (!stored) {
          await tx.run(
            `INSERT INTO messages (workspace_id, conversation_id, ts, "user", text, subtype, thread_ts, reply_count, client_msg_id, content, resolved_text)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              ws,
              row.conversation_id,
              row.ts,
              row.user,
              row.text,
              row.subtype,
              row.thread_ts,
              row.reply_count,
              row.client_msg_id,
              row.content,
              row.resolved_text,
            ],
          );
          result.inserted.push(toMessage(row));
          // Its author has read it (as Slack moves the sender's read mark).
          if (row.user)
            await tx.run(
              `UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND conversation_id = ? AND user_id = ? AND last_read != '' AND last_read < ?`,
              [row.ts, ws, row.conversation_id, row.user, row.ts],
            );
        } else if (
          stored.text !== row.text ||
          stored.reply_count !== row.reply_count ||
          (stored.subtype ?? null) !== row.subtype ||
          (stored.thread_ts ?? null) !== row.thread_ts ||
          stored.content !== row.content ||
          stored.resolved_text !== row.resolved_text ||
          stored.user !== row.user
        ) {
          await tx.run(
            `UPDATE messages SET "user" = ?, text = ?, subtype = ?, thread_ts = ?, reply_count = ?, content = ?, resolved_text = ? WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`,
            [row.user, row.text, row.subtype, row.thread_ts, row.reply_count, row.content, row.resolved_text, ws, row.conversation_id, row.ts],
          );
          if (
            stored.text !== row.text ||
            stored.resolved_text !== row.resolved_text ||
            (stored.subtype ?? null) !== row.subtype ||
            stored.content !== row.content ||
            stored.user !== row.user
          ) {
            await dropSearch(row.conversation_id, row.ts);
            if (tx.dialect === 'sqlite' && !isQuietSubtype(row.subtype))
              await tx.run(`INSERT INTO message_search (text, workspace_id, conversation_id, ts, user) VALUES (?, ?, ?, ?, ?)`, [
                row.resolved_text ?? row.text,
                ws,
                row.conversation_id,
                row.ts,
                row.user,
              ]);
            result.edited.push(toMessage({ ...row, client_msg_id: stored.client_msg_id }));
          }
        } else continue;
        touched.add(m.conversation_id);
      }
      for (const d of batch.deletedMessages ?? []) {
        const gone = await tx.run(`DELETE FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ts = ?`, [ws, d.conversation_id, d.ts]);
        if (!gone) continue;
        await dropSearch(d.conversation_id, d.ts);
        result.deleted.push({ conversation_id: d.conversation_id, ts: d.ts });
        touched.add(d.conversation_id);
      }

      for (const mark of batch.readMarks ?? []) touched.add(mark.conversation_id);
      // Counts, the newest message and the thread parent come from what is stored, so a batch fetched twice changes nothing.
      for (const id of touched) {
        const conv = await tx.get<{ parent_id: string | null; thread_ts: string | null }>(
          `SELECT parent_id, thread_ts FROM conversations WHERE workspace_id = ? AND id = ?`,
          [ws, id],
        );
        if (!conv) continue;
        const latest = await tx.get<{ ts: string }>(`SELECT ts FROM messages WHERE workspace_id = ? AND conversation_id = ? ORDER BY ts DESC LIMIT 1`, [
          ws,
          id,
        ]);
        // The preview is the newest message that is not a system line.
        const preview = await tx.get<{ user: string | null; text: string }>(
          `SELECT "user", ${READABLE} AS text FROM messages WHERE workspace_id = ? AND conversation_id = ? AND ${COUNTS_AS_UNREAD} ORDER BY ts DESC LIMIT 1`,
          [ws, id],
        );
        const count = (await tx.get<{ n: number }>(`SELECT count(*) AS n FROM messages WHERE workspace_id = ? AND conversation_id = ?`, [ws, id]))!.n;
        await tx.run(`UPDATE conversations SET message_count = ?, latest_ts = ?, latest_user = ?, latest_text = ? WHERE workspace_id = ? AND id = ?`, [
          count,
          latest?.ts ?? '',
          preview?.user ?? null,
          preview?.text ?? null,
          ws,
          id,
        ]);
        if (conv.parent_id && conv.thread_ts) {
          const parent = await selectMessage(conv.parent_id, conv.thread_ts);
          if (parent)
            await tx.run(`UPDATE conversations SET parent_user = ?, parent_text = ? WHERE workspace_id = ? AND id = ?`, [
              parent.user,
              parent.resolved_text ?? parent.text,
              ws,
              id,
            ]);
        }
        // A member without a read mark yet has read to the latest message.
        if (latest)
          await tx.run(`UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND conversation_id = ? AND last_read = ''`, [latest.ts, ws, id]);
      }
      const before = new Map<string, string>();
      for (const mark of batch.readMarks ?? []) {
        const row = await tx.get<{ last_read: string }>(
          `SELECT last_read FROM conversation_members WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`,
          [ws, mark.user_id, mark.conversation_id],
        );
        if (!row) continue;
        before.set(`${mark.conversation_id}\u0000${mark.user_id}`, row.last_read);
        await tx.run(`UPDATE conversation_members SET last_read = ? WHERE workspace_id = ? AND user_id = ? AND conversation_id = ?`, [
          mark.last_read,
          ws,
          mark.user_id,
          mark.conversation_id,
        ]);
      }
      for (const id of touched)
        await tx.run(
          `UPDATE conversation_members${indexedBy(tx, 'conversation_members_by_conversation')}
           SET unread_count = (SELECT count(*) FROM messages WHERE workspace_id = conversation_members.workspace_id AND conversation_id = conversation_members.conversation_id
             AND ts > conversation_members.last_read AND ("user" IS NULL OR "user" != conversation_members.user_id) AND ${COUNTS_AS_UNREAD})
           WHERE workspace_id = ? AND conversation_id = ?`,
          [ws, id],
        );
      for (const mark of batch.readMarks ?? []) {
        const previous = before.get(`${mark.conversation_id}\u0000${mark.user_id}`);
        if (previous === undefined || previous === mark.last_read) continue;
        const state = (await readStates(tx, ws, mark.conversation_id)).find((m) => m.userId === mark.user_id);
        if (state) result.marked.push({ ...state, conversation_id: mark.conversation_id });
      }
      if (!build) return { result, events: [] };
      for (const id of touched) {
        if (!(await tx.get(`SELECT 1 AS found FROM conversations WHERE workspace_id = ? AND id = ?`, [ws, id]))) continue;
        result.touched.set(id, { conversation: await baseSummary(tx, ws, id), members: await readStates(tx, ws, id) });
      }
      return { result, events: await this.events.append(tx, ws, build(result), at) };
    });
  }
}
