/**
 * SPEC §7.5: GET /api/search?q&type&limit over what the member can see.
 * - Messages: SQLite FTS5 with porter stemming; every word must match, the last one as a
 *   prefix; relevance (bm25) is weighed against age, so of two equal matches the newer wins.
 * - Conversations and people: names containing the text; an exact name first, then a name
 *   starting with it, then the rest (conversations by recent activity).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MIN_QUERY_LENGTH } from '../../model/constants';
import { conversationTitle, displayName } from '../../model/rows';
import type { ConversationSummary, User, UserData } from '../../model/types';
import type { AppContext, AppEnv } from '../context';
import { parseQuery } from '../http';
import { mentionsOf } from '../mentions';
import { messageScore, nameRank, textQuery } from '../search';

const querySchema = z.object({
  q: z
    .string()
    .transform((q) => q.trim())
    .refine((q) => q.length >= SEARCH_MIN_QUERY_LENGTH, `q must have at least ${SEARCH_MIN_QUERY_LENGTH} characters`),
  type: z.enum(['all', 'conversations', 'messages', 'users']).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'must be from 1 to 100')
    .optional(),
});

export function searchRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get('/api/search', async (c) => {
    const started = performance.now();
    const s = c.get('session');
    const { q, type = 'all', limit = SEARCH_DEFAULT_LIMIT } = parseQuery(c, querySchema);
    const want = (kind: string) => type === 'all' || type === kind;
    const users = new Map<string, UserData>();
    const nameOf = async (id: string | null | undefined) => {
      if (!id) return undefined;
      if (!users.has(id)) {
        const u = await ctx.store.getUser(s.workspaceId, id);
        if (u) users.set(id, u);
      }
      return users.get(id);
    };

    let conversations: ConversationSummary[] = [];
    if (want('conversations')) {
      const found = await ctx.store.searchConversations(s.workspaceId, s.userId, q, limit * 3);
      for (const conv of found) if (conv.dm_user) await nameOf(conv.dm_user);
      conversations = found
        .map((conv) => ({ conv, rank: nameRank([conv.name, conversationTitle(conv, users)], q) }))
        .sort((a, b) => a.rank - b.rank || b.conv.latest_activity - a.conv.latest_activity)
        .slice(0, limit)
        .map(({ conv }) => ({ ...conv, name: conversationTitle(conv, users) }));
    }

    let people: User[] = [];
    if (want('users')) {
      const found = await ctx.store.searchUsers(s.workspaceId, q, limit * 3);
      people = found
        .map((user) => ({ user, rank: nameRank([user.real_name, user.display_name, user.name], q) }))
        .sort((a, b) => a.rank - b.rank || displayName(a.user, a.user.id).localeCompare(displayName(b.user, b.user.id)))
        .slice(0, limit)
        .map(({ user }) => user);
    }

    const messages: Array<Record<string, unknown>> = [];
    const query = textQuery(q);
    if (want('messages') && query) {
      const now = ctx.clock.now();
      // The 200 newest matches at least, re-ranked by relevance weighed against age.
      const hits = (await ctx.store.searchMessages(s.workspaceId, s.userId, query, Math.max(200, limit * 10)))
        .map((hit) => ({ hit, score: messageScore(hit.bm25, hit.ts, now) }))
        .sort((a, b) => b.score - a.score || (b.hit.ts > a.hit.ts ? 1 : -1))
        .slice(0, limit);
      const summaries = new Map<string, ConversationSummary | null>();
      for (const { hit, score } of hits) {
        if (!summaries.has(hit.conversation_id))
          summaries.set(hit.conversation_id, await ctx.store.getConversation(s.workspaceId, s.userId, hit.conversation_id));
        const conv = summaries.get(hit.conversation_id);
        if (!conv) continue;
        if (conv.dm_user) await nameOf(conv.dm_user);
        const author = await nameOf(hit.user);
        messages.push({
          id: `${hit.conversation_id}/${hit.ts}`,
          ts: hit.ts,
          conversation_id: hit.conversation_id,
          conversation_name: conversationTitle(conv, users),
          conversation_type: conv.type,
          conversation_is_private: conv.is_private,
          text: hit.text,
          user: { id: hit.user, name: author ? displayName(author, hit.user ?? '') : (hit.user ?? '') },
          score: Math.round(score * 1000) / 1000,
        });
      }
    }

    // Names for the hits' channel and user group mentions and custom emoji, as a conversation gets them.
    const mentions = messages.length
      ? await mentionsOf(
          ctx.store,
          s.workspaceId,
          s.userId,
          messages.map((m) => ({ ts: String(m.ts), text: String(m.text), channel: String(m.conversation_id) })),
        )
      : {};
    return c.json({
      success: true,
      results: { conversations, messages, users: people },
      ...(Object.keys(mentions).length ? { mentions } : {}),
      sorting_metrics: {
        query: q,
        type,
        limit,
        took_ms: Math.round((performance.now() - started) * 10) / 10,
        ranking: 'messages: bm25 relevance halved over two weeks of age; names: exact, then prefix, then contains',
      },
    });
  });

  return app;
}
