/**
 * SPEC §7.4 and §7.8: classification, refinement (a stream), answers, catch-up sessions and
 * transcription. Bodies are validated here; the work is the AI service's (ai/service.ts).
 * Without an AI provider every call answers 503.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { ASK_HISTORY_LIMIT, REFINE_ERROR_DEFAULT, REFINE_MODES, type RefineEvent } from '../../model/ai';
import { MAX_MESSAGE_LENGTH } from '../../model/constants';
import { AI_CATEGORIES, type AiCategory } from '../../model/types';
import type { AppContext, AppEnv } from '../context';
import { HttpProblem, parseBody } from '../http';
import { markConversationRead } from '../messaging';
import type { AiService } from '../ai/service';
import { AiError } from '../ai/types';

/** The longest question /api/ask takes. */
export const MAX_QUESTION_LENGTH = 2_000;
/** The largest audio upload (the transcription APIs' own limit is 25 MB). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** Audio types the transcription takes (by the upload's MIME type, parameters ignored). */
export const AUDIO_TYPES = [
  'audio/webm',
  'audio/ogg',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/flac',
  'audio/m4a',
  'audio/x-m4a',
  'video/webm',
];

const askSchema = z.object({
  question: z
    .string()
    .transform((q) => q.trim())
    .refine((q) => q.length > 0, 'must not be blank')
    .refine((q) => q.length <= MAX_QUESTION_LENGTH, `must be at most ${MAX_QUESTION_LENGTH} characters`),
  options: z
    .object({
      max_sources: z.number().int().min(1).max(20).optional(),
      temperature: z.number().min(0).max(2).optional(),
      model: z.string().min(1).max(100).optional(),
      verbose: z.boolean().optional(),
      top_k: z.number().int().min(1).max(100).optional(),
    })
    .strict()
    .optional(),
  history: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(MAX_MESSAGE_LENGTH) }).strict())
    .max(ASK_HISTORY_LIMIT, `history may hold at most ${ASK_HISTORY_LIMIT} turns`)
    .optional(),
});

const refineSchema = z.object({
  text: z
    .string()
    .refine((t) => t.trim().length > 0, 'must not be blank')
    .refine((t) => t.length <= MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`),
  mode: z.enum(REFINE_MODES),
});

/**
 * A turn: the member's words (typed or spoken: SPEC §7.8), or (Sift's addition) a press of a
 * proposal's button: the proposal's id and whether it was 'Mark these read' (true) or 'Not now'.
 */
const chatSchema = z.union([
  z.object({
    sessionId: z.string().min(1).max(100),
    proposalId: z.string().min(1).max(100),
    confirm: z.boolean(),
    message: z.string().max(MAX_QUESTION_LENGTH).optional(),
  }),
  z.object({
    sessionId: z.string().min(1).max(100),
    message: z
      .string()
      .transform((m) => m.trim())
      .refine((m) => m.length > 0, 'must not be blank')
      .refine((m) => m.length <= MAX_QUESTION_LENGTH, `must be at most ${MAX_QUESTION_LENGTH} characters`),
  }),
]);

function aiOf(ctx: AppContext): AiService {
  if (!ctx.ai) throw new AiError('AI is not available on this server', 503);
  return ctx.ai;
}

/** Aborted when the client goes away, so a provider stops working for nobody. */
function clientSignal(c: Context): AbortSignal {
  return c.req.raw.signal;
}

export function aiRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const messaging = { store: ctx.store, hub: ctx.hub, now: () => ctx.clock.now() };

  app.post('/api/features/ai-sort/classify-unread', async (c) => {
    const summary = await aiOf(ctx).classifyUnread(c.get('session'));
    return c.json({ success: true, ...summary });
  });

  app.get('/api/features/ai-sort/status', async (c) => c.json(await aiOf(ctx).status(c.get('session'))));

  app.get('/api/features/ai-sort/conversations/:category', async (c) => {
    const category = c.req.param('category');
    if (!(AI_CATEGORIES as readonly string[]).includes(category)) throw new HttpProblem(400, `category must be one of ${AI_CATEGORIES.join(', ')}`);
    const conversations = await aiOf(ctx).conversationsIn(c.get('session'), category as AiCategory);
    return c.json({ success: true, category, total: conversations.length, conversations });
  });

  app.post('/api/messages/refine', async (c) => {
    const ai = aiOf(ctx);
    const { text, mode } = await parseBody(c, refineSchema);
    const controller = new AbortController();
    // Over the daily budget: a 429 before the stream starts.
    const chunks = await ai.refine(c.get('session'), text, mode, controller.signal);
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => controller.abort());
      const send = (event: RefineEvent) => stream.writeSSE({ data: JSON.stringify(event) });
      let whole = '';
      try {
        for await (const chunk of chunks) {
          if (controller.signal.aborted) return;
          whole += chunk;
          await send({ chunk });
        }
        if (!whole.trim()) throw new AiError('The AI returned an empty suggestion');
        await send({ done: true, text: whole });
      } catch (error) {
        if (controller.signal.aborted) return;
        ctx.logger.log('warn', 'refine failed', { mode, error: String(error) });
        await send({ error: error instanceof AiError ? error.message : REFINE_ERROR_DEFAULT });
      }
    });
  });

  app.post('/api/ask', async (c) => {
    const ai = aiOf(ctx);
    const { question, options, history } = await parseBody(c, askSchema);
    const answer = await ai.ask(c.get('session'), question, options ?? {}, clientSignal(c), history ?? []);
    return c.json({ success: true, ...answer });
  });

  app.post('/api/features/voice-catchup/start', async (c) => {
    const started = await aiOf(ctx).catchup.start(c.get('session'));
    return c.json({ success: true, ...started });
  });

  app.post('/api/features/voice-catchup/chat', async (c) => {
    const ai = aiOf(ctx);
    const s = c.get('session');
    const body = await parseBody(c, chatSchema);
    // Up to the message the proposal showed: what arrived after it stays unread.
    const markRead = async (conversationId: string, upTo?: string) => {
      await markConversationRead(messaging, { workspaceId: s.workspaceId, userId: s.userId, conversationId, ...(upTo ? { timestamp: upTo } : {}) });
    };
    const turn = 'proposalId' in body ? { proposalId: body.proposalId, confirm: body.confirm } : { message: body.message };
    const reply = await ai.catchup.chat(s, body.sessionId, turn, markRead, clientSignal(c));
    return c.json({ success: true, ...reply });
  });

  app.get('/api/features/voice-catchup/session/:id', async (c) => {
    const session = await aiOf(ctx).catchup.session(c.get('session'), c.req.param('id'));
    return c.json({ success: true, session });
  });

  app.get('/api/features/voice-catchup/session/:id/stats', async (c) => {
    const stats = await aiOf(ctx).catchup.stats(c.get('session'), c.req.param('id'));
    return c.json({ success: true, stats });
  });

  app.delete('/api/features/voice-catchup/session/:id', async (c) => {
    await aiOf(ctx).catchup.end(c.get('session'), c.req.param('id'));
    return c.json({ success: true });
  });

  app.post(
    '/api/features/voice-catchup/transcribe',
    bodyLimit({ maxSize: MAX_AUDIO_BYTES + 64 * 1024, onError: (c) => c.json({ error: 'The audio file is larger than 25 MB' }, 413) }),
    async (c) => {
      const ai = aiOf(ctx);
      if (!(c.req.header('content-type') ?? '').startsWith('multipart/form-data'))
        throw new HttpProblem(400, 'Send the audio as multipart/form-data with a file field named audio');
      const form = await c.req.parseBody().catch(() => {
        throw new HttpProblem(400, 'The multipart body could not be read');
      });
      const file = form.audio ?? form.file;
      if (!(file instanceof File)) throw new HttpProblem(400, 'No audio file: send it in a field named audio');
      if (file.size === 0) throw new HttpProblem(400, 'The audio file is empty');
      const mimeType = (file.type || '').split(';')[0]!.trim().toLowerCase();
      if (!AUDIO_TYPES.includes(mimeType)) throw new HttpProblem(400, `Unsupported audio type ${mimeType || '(none)'}: send webm, ogg, mp4, mpeg, wav or flac`);
      if (!ai.provider.canTranscribe) throw new AiError('Transcription needs a speech model: set SIFT_AI_BASE_URL to an OpenAI-compatible server', 503);
      const transcript = await ai.transcribe(
        c.get('session'),
        { data: new Uint8Array(await file.arrayBuffer()), mimeType, filename: file.name || 'audio' },
        clientSignal(c),
      );
      return c.json({ success: true, transcript });
    },
  );

  return app;
}
