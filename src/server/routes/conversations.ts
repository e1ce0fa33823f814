/** SPEC §7.2: conversations, messages and users, as the signed-in member sees them. */
import { readableText, userMentions } from '../../model/slack';
import { mentionsOf } from '../mentions';
import { Hono } from 'hono';
import { z } from 'zod';
import { compileFilter, isKnownOperator } from '../../model/filter';
import { referencedUsers } from '../../model/rows';
import { AI_CATEGORIES, CONVERSATION_TYPES, type AiCategory, type ConversationSummary, type Conversation, type Message } from '../../model/types';
import { isTs, compareTs } from '../../model/ts';
import { validateOutgoingMessage } from '../../model/validation';
import type { AppContext, AppEnv } from '../context';
import { HttpProblem, parseBody, parseQuery } from '../http';
import type { ActivityCursor } from '../store/types';
import { MessagingError, assertCanPost, markConversationRead, markConversationUnread, postMessage, sendsOnce, setManualCategory } from '../messaging';

/** How many of a conversation's newest messages one fetch returns. */
export const CONVERSATION_MESSAGE_LIMIT = 500;

const typeSchema = z.enum(CONVERSATION_TYPES as [string, ...string[]]);
const intString = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .refine((n) => n <= max, `must be at most ${max}`);

const ruleSchema = z.object({
  field: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, 'must be a field name or a dotted path'),
  operator: z.string().refine(isKnownOperator, 'unknown operator'),
  value: z.unknown().optional(),
});

const filteredSchema = z.object({
  filter: z.union([z.array(ruleSchema), z.object({ rules: z.array(ruleSchema), combinator: z.enum(['and', 'or']).optional() })]).optional(),
  sort: z.object({ field: z.enum(['latest_activity', 'unread_count', 'name']), direction: z.enum(['asc', 'desc']).optional() }).optional(),
  includeThreads: z.boolean().optional(),
  includeUserData: z.boolean().optional(),
  limit: z.number().int().min(1).max(100_000).optional(),
  offset: z.number().int().min(0).optional(),
});

const sendSchema = z.object({
  channel: z.string().min(1, 'channel is required').max(200),
  text: z.string(),
  thread_ts: z.string().optional(),
  mentions: z.array(z.string()).optional(),
  /** The client's id of this send (a UUID): a retry with the same id posts nothing (issue 14 §3). */
  client_msg_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _ (a UUID, say)')
    .optional(),
});

function encodeCursor(cursor: ActivityCursor): string {
  return Buffer.from(JSON.stringify([cursor.latest_ts, cursor.id])).toString('base64url');
}

function decodeCursor(raw: string): ActivityCursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { latest_ts: value[0], id: value[1] };
    }
  } catch {
    /* fall through */
  }
  throw new HttpProblem(400, 'Invalid query: cursor: not a cursor this server issued');
}

function aggregateOf(conversations: ConversationSummary[]) {
  const byType: Record<string, number> = { dm: 0, channel: 0, thread: 0 };
  const byCategory: Record<string, number> = { urgent: 0, can_wait: 0, fyi: 0, none: 0 };
  let unread = 0;
  for (const c of conversations) {
    byType[c.type] = (byType[c.type] ?? 0) + 1;
    const key = c.unread_count_display > 0 ? (c.ai_category ?? 'none') : null;
    if (key) byCategory[key] = (byCategory[key] ?? 0) + 1;
    if (c.unread_count_display > 0) unread += 1;
  }
  return { total: conversations.length, unread, by_type: byType, unread_by_category: byCategory };
}

export function conversationRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const messaging = { store: ctx.store, hub: ctx.hub, now: () => ctx.clock.now(), source: ctx.source };
  const sendOnce = sendsOnce(ctx.store);

  /*
   * Pages: `order=activity` (newest first) with `limit` and the opaque `cursor` of the
   * previous page's `next_cursor`; or the default id order with `offset`. The total is
   * counted on a first page only.
   */
  app.get('/api/conversations/data', async (c) => {
    const s = c.get('session');
    const q = parseQuery(
      c,
      z.object({
        type: typeSchema.optional(),
        order: z.enum(['id', 'activity']).optional(),
        cursor: z.string().max(200).optional(),
        offset: intString(10_000_000).optional(),
        limit: intString(100_000).optional(),
        // 'referenced': only the people the page's rows name (a DM's person, a group's members, the last
        // message's author): a first page that paints at once; the client asks for everyone with a later page.
        includeUsers: z.enum(['true', 'false', 'referenced']).optional(),
      }),
    );
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const order = q.order ?? (after ? 'activity' : 'id');
    if (order === 'activity' && q.offset) throw new HttpProblem(400, 'Invalid query: offset: use cursor with order=activity');
    const first = !after && !q.offset;
    const { conversations, total, next } = await ctx.store.listConversations(s.workspaceId, s.userId, {
      type: q.type as ConversationSummary['type'] | undefined,
      order,
      after,
      offset: q.offset,
      limit: q.limit,
      skipTotal: !first,
    });
    const withUsers = q.includeUsers ? q.includeUsers !== 'false' : first;
    const data: { conversations: ConversationSummary[]; users?: Record<string, unknown> } = { conversations };
    if (withUsers) {
      // 'referenced': the few people of the page's rows, read one by one (reading everyone to keep a few cost ~50 ms at 5,000).
      const users =
        q.includeUsers === 'referenced'
          ? (await Promise.all([...referencedUsers(conversations)].map((id) => ctx.store.getUser(s.workspaceId, id)))).filter((u) => u !== null)
          : await ctx.store.listUsers(s.workspaceId);
      data.users = Object.fromEntries(users.map((u) => [u.id, u]));
    }
    return c.json({
      success: true,
      data,
      ...(first ? { total } : {}),
      ...(order === 'activity' ? { next_cursor: next ? encodeCursor(next) : null } : { offset: q.offset ?? 0 }),
    });
  });

  app.post('/api/conversations/filtered', async (c) => {
    const s = c.get('session');
    const body = await parseBody(c, filteredSchema);
    const filter = Array.isArray(body.filter) ? { rules: body.filter } : (body.filter ?? { rules: [] });
    const predicate = compileFilter<ConversationSummary>(filter);
    const { conversations } = await ctx.store.listConversations(s.workspaceId, s.userId);
    let matched = conversations.filter((conv) => (body.includeThreads === false ? conv.type !== 'thread' : true) && predicate(conv));
    const field = body.sort?.field ?? 'latest_activity';
    const sign = (body.sort?.direction ?? (field === 'name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
    matched = matched.sort((a, b) => {
      const d = field === 'name' ? a.name.localeCompare(b.name) : (a[field] as number) - (b[field] as number);
      return d !== 0 ? sign * d : a.id.localeCompare(b.id);
    });
    const total = matched.length;
    const page = matched.slice(body.offset ?? 0, (body.offset ?? 0) + (body.limit ?? total));
    const users = body.includeUserData
      ? await ctx.store.userData(
          s.workspaceId,
          page.flatMap((conv) => conv.member_ids),
        )
      : undefined;
    return c.json({ success: true, data: { conversations: page, users }, aggregates: aggregateOf(matched), total });
  });

  app.get('/api/conversations/fetch', async (c) => {
    const s = c.get('session');
    if (ctx.source.fetchNew) {
      const summary = await ctx.source.fetchNew(ctx.store, s.workspaceId, s.userId);
      return c.json({ success: true, summary: { conversations: summary.conversations, new_messages: summary.new_messages } });
    }
    const { total } = await ctx.store.listConversations(s.workspaceId, s.userId, { limit: 0 });
    return c.json({ success: true, summary: { conversations: total, new_messages: 0 } });
  });

  app.get('/api/conversations/fetch-all', async (c) => {
    const s = c.get('session');
    const summary = await ctx.source.fetchAll(ctx.store, s.workspaceId, s.userId);
    const events = await ctx.store.appendEvents(s.workspaceId, [{ userId: s.userId, type: 'fetch_complete', data: { summary } }], ctx.clock.now());
    ctx.hub.publish(s.workspaceId, events);
    return c.json({ success: true, summary });
  });

  app.post('/api/conversations/aggregate', async (c) => {
    const s = c.get('session');
    const { groups } = await parseBody(
      c,
      z.object({
        groups: z
          .array(z.enum(['type', 'ai_category', 'is_private', 'unread']))
          .min(1)
          .max(4),
      }),
    );
    const { conversations } = await ctx.store.listConversations(s.workspaceId, s.userId);
    const data: Record<string, Record<string, number>> = {};
    for (const group of groups) {
      const counts: Record<string, number> = {};
      for (const conv of conversations) {
        const key = group === 'unread' ? String(conv.unread_count_display > 0) : group === 'ai_category' ? (conv.ai_category ?? 'none') : String(conv[group]);
        counts[key] = (counts[key] ?? 0) + 1;
      }
      data[group] = counts;
    }
    return c.json({ success: true, data, total: conversations.length });
  });

  app.post('/api/conversations/:id/mark-read', async (c) => {
    const s = c.get('session');
    const { timestamp } = await parseBody(c, z.object({ timestamp: z.string().refine(isTs, 'must be a message timestamp').optional() }));
    const conversationId = c.req.param('id');
    const state = await markConversationRead(messaging, { workspaceId: s.workspaceId, userId: s.userId, conversationId, timestamp });
    return c.json({ success: true, conversation_id: conversationId, last_read: state.last_read, unread_count: state.unread_count });
  });

  app.post('/api/conversations/:id/mark-unread', async (c) => {
    const s = c.get('session');
    const { timestamp } = await parseBody(c, z.object({ timestamp: z.string().refine(isTs, 'must be a message timestamp').optional() }));
    const conversationId = c.req.param('id');
    const state = await markConversationUnread(messaging, { workspaceId: s.workspaceId, userId: s.userId, conversationId, timestamp });
    return c.json({ success: true, conversation_id: conversationId, last_read: state.last_read, unread_count: state.unread_count });
  });

  app.post('/api/features/ai-sort/label/:id', async (c) => {
    const s = c.get('session');
    const { category } = await parseBody(c, z.object({ category: z.enum(AI_CATEGORIES as [AiCategory, ...AiCategory[]]) }));
    const conversationId = c.req.param('id');
    const changed = await setManualCategory(messaging, { workspaceId: s.workspaceId, userId: s.userId, conversationId, category });
    // The category is saved; a lesson that cannot be written only costs the classifier a hint. The same category again teaches nothing new.
    if (changed)
      await ctx.ai
        ?.learn(s, conversationId, category)
        .catch((error: unknown) => ctx.logger.log('warn', 'could not store the lesson', { conversationId, error: String(error) }));
    return c.json({ success: true, conversation_id: conversationId, ai_category: category, ai_source: 'manual' });
  });

  app.delete('/api/features/ai-sort/label/:id', async (c) => {
    const s = c.get('session');
    const conversationId = c.req.param('id');
    await setManualCategory(messaging, { workspaceId: s.workspaceId, userId: s.userId, conversationId, category: null });
    return c.json({ success: true, conversation_id: conversationId, ai_category: null });
  });

  app.get('/api/conversations/:id/threads', async (c) => {
    const s = c.get('session');
    const id = c.req.param('id');
    const summary = await ctx.store.getConversation(s.workspaceId, s.userId, id);
    if (!summary) throw new HttpProblem(404, 'Unknown conversation');
    const messages = await ctx.store.listMessages(s.workspaceId, id, CONVERSATION_MESSAGE_LIMIT);
    // A thread reads from its parent message down.
    if (summary.type === 'thread' && summary.parent_conversation_id && summary.parent_message?.ts) {
      const parent = await ctx.store.getMessage(s.workspaceId, summary.parent_conversation_id, summary.parent_message.ts);
      if (parent && !messages.some((m) => m.ts === parent.ts)) messages.unshift(parent);
    }
    const withThreads: Message[] = [];
    for (const message of messages) {
      if (summary.type !== 'thread' && message.reply_count) {
        const replies = await ctx.store.listMessages(s.workspaceId, `${id}:${message.ts}`, CONVERSATION_MESSAGE_LIMIT);
        withThreads.push({ ...message, threads: replies.sort((a, b) => compareTs(a.ts, b.ts)) });
      } else withThreads.push(message);
    }
    // Authors, members, and everyone a message mentions, so the page can name them all.
    const all = withThreads.flatMap((m) => [m, ...(m.threads ?? [])]);
    const mentioned = all.flatMap((m) => userMentions(readableText(m)));
    const userIds = [...summary.member_ids, ...all.map((m) => m.user), ...mentioned].filter((u): u is string => Boolean(u));
    const members = await ctx.store.userData(s.workspaceId, userIds);
    for (const message of withThreads) {
      if (message.user && members[message.user]) message.user_data = members[message.user];
      for (const reply of message.threads ?? []) if (reply.user && members[reply.user]) reply.user_data = members[reply.user];
    }
    const conversation: Conversation = {
      ...summary,
      participants: summary.member_ids.map((m) => members[m]).filter((u): u is NonNullable<typeof u> => Boolean(u)),
      members_data: members,
      mentions: await mentionsOf(ctx.store, s.workspaceId, s.userId, all),
      messages: withThreads,
      last_message: summary.latest_message,
    };
    return c.json({ success: true, conversation });
  });

  app.post('/api/messages/validate', async (c) => {
    const body = await parseBody(
      c,
      z.object({
        message: z.object({ channel: z.unknown(), text: z.unknown(), thread_ts: z.unknown().optional() }),
        mentions: z.array(z.string()).optional(),
      }),
    );
    const errors = validateOutgoingMessage(body.message);
    return c.json({ success: errors.length === 0, errors, message: body.message });
  });

  app.post('/api/messages/send', async (c) => {
    const s = c.get('session');
    const body = await parseBody(c, sendSchema);
    const errors = validateOutgoingMessage(body);
    if (errors.length > 0) throw new HttpProblem(400, `Message validation failed: ${errors.join(', ')}`, { errors });
    // A target that does not exist, or that the sender may not post in, is a validation failure (SPEC §5), found before anything reaches the workspace.
    const refused = (error: unknown): never => {
      if (error instanceof MessagingError) throw new HttpProblem(400, `Message validation failed: ${error.message}`, { errors: [error.message] });
      throw error;
    };
    const answer = await sendOnce({ workspaceId: s.workspaceId, userId: s.userId, clientMsgId: body.client_msg_id }, async () => {
      await assertCanPost(messaging, { workspaceId: s.workspaceId, userId: s.userId, channel: body.channel, thread_ts: body.thread_ts }).catch(refused);
      const delivered = await ctx.source.deliver?.({
        workspaceId: s.workspaceId,
        userId: s.userId,
        conversationId: body.channel,
        text: body.text,
        thread_ts: body.thread_ts,
      });
      const result = await postMessage(messaging, {
        workspaceId: s.workspaceId,
        userId: s.userId,
        channel: body.channel,
        text: body.text,
        thread_ts: body.thread_ts,
        client_msg_id: body.client_msg_id,
        ts: delivered ? delivered.ts : undefined,
      }).catch(refused);
      return { channel: result.message.channel, ts: result.message.ts, message: result.message };
    });
    return c.json({ success: true, ok: true, ...answer });
  });

  app.get('/api/users/display-data', async (c) => {
    const s = c.get('session');
    const users = await ctx.store.listUsers(s.workspaceId);
    return c.json({ success: true, data: { users: Object.fromEntries(users.map((u) => [u.id, u])) } });
  });

  return app;
}
