/**
 * A local HTTP server that speaks the OpenAI API, for tests of the OpenAI-compatible provider and
 * for end-to-end runs of Sift with SIFT_AI_BASE_URL pointing at it. node:http only.
 *
 * - POST /v1/chat/completions: a `chat.completion` object, or with `stream: true` a
 *   `text/event-stream` of `chat.completion.chunk` events ending in `data: [DONE]`.
 * - POST /v1/audio/transcriptions: multipart/form-data with `file` and `model`; answers `{text}`.
 * - Errors in OpenAI's shape `{error: {message, type, param, code}}` with their status.
 *
 * What the model says is decided per request: by the handler given to `respond`, and when there
 * is none (or it returns undefined) by `scriptedReply`, which understands the provider's prompts
 * well enough to give sensible answers (see its JSDoc).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** An uploaded file of a multipart request. */
export interface FakeFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/** One request the fake received, as it received it. */
export interface FakeRequest {
  method: string;
  /** '/v1/chat/completions' */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The JSON body; for multipart, the fields by name (files as FakeFile); else the raw text. */
  body: unknown;
  /** True once the client closed the connection before the answer was complete. */
  aborted: boolean;
}

/** The API's `usage` of a chat completion (the details are zeros here: no cache, no reasoning, no audio). */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
}

/**
 * What to answer:
 * - `content`: a chat completion; a string is streamed word by word, an array chunk by chunk;
 *   its `usage` is counted from the characters unless given; null leaves it out (a server that reports none);
 * - `text`: a transcription;
 * - `status` + `message`: an error in OpenAI's shape.
 * `delayMs` waits before the answer starts, `chunkDelayMs` between streamed chunks.
 */
export type FakeReply =
  | { content: string | string[]; usage?: Partial<FakeUsage> | null; finishReason?: string; delayMs?: number; chunkDelayMs?: number }
  | { text: string; delayMs?: number }
  | { status: number; message: string; type?: string; code?: string | null; delayMs?: number };

/** Decides the answer to one request; undefined falls back to `scriptedReply`. */
export type FakeHandler = (request: FakeRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeOpenAiOptions {
  /** 0 (any free port) by default. */
  port?: number;
  /** '127.0.0.1' by default. */
  host?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /** Default delay before every answer (a slow model). */
  delayMs?: number;
  /** Default delay between streamed chunks. */
  chunkDelayMs?: number;
  /** The text scripted transcriptions return. */
  transcript?: string;
  handler?: FakeHandler;
}

export interface FakeOpenAi {
  /** The base URL, ending in /v1 (what SIFT_AI_BASE_URL takes). */
  url: string;
  /** Every request so far, oldest first. */
  requests: FakeRequest[];
  /** Replaces the handler; null goes back to the scripted answers. */
  respond(handler: FakeHandler | null): void;
  close(): Promise<void>;
}

/** The transcription `scriptedReply` returns unless FakeOpenAiOptions.transcript says otherwise. */
export const SCRIPTED_TRANSCRIPT = 'Remind me to review the launch checklist tomorrow.';

type ChatMessage = { role: string; content: unknown };

/** Starts the fake on a free port (or options.port) and resolves once it listens. */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  const inFlight = new Set<AbortController>();
  let handler = options.handler ?? null;

  const server = createServer((req, res) => {
    const cancel = new AbortController();
    inFlight.add(cancel);
    res.on('close', () => {
      cancel.abort();
      inFlight.delete(cancel);
    });
    serve(req, res, cancel.signal).catch((error: unknown) => {
      if (!cancel.signal.aborted && !res.headersSent) sendError(res, { status: 500, message: `Fake server failure: ${String(error)}` });
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const raw = await readBody(req);
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://fake').pathname,
      headers: flatHeaders(req),
      body: parseBody(raw, req.headers['content-type'] ?? ''),
      aborted: false,
    };
    requests.push(request);
    res.on('close', () => {
      if (!res.writableFinished) request.aborted = true;
    });
    const problem = checkRequest(request, options.apiKey);
    const reply = problem ?? (await handler?.(request)) ?? scriptedReply(request, options.transcript);
    await sleep(reply.delayMs ?? options.delayMs ?? 0, undefined, { signal });
    if ('status' in reply) return sendError(res, reply);
    if ('text' in reply) return sendJson(res, 200, { text: reply.text });
    if (isRecord(request.body) && request.body.stream === true) {
      return streamCompletion(res, request.body, reply, reply.chunkDelayMs ?? options.chunkDelayMs ?? 0, signal);
    }
    sendJson(res, 200, completion(request.body, reply));
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/v1`,
    requests,
    respond(next) {
      handler = next;
    },
    async close() {
      for (const cancel of inFlight) cancel.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/* requests */

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseBody(raw: Buffer, contentType: string): unknown {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (/^multipart\/form-data/i.test(contentType) && boundary) return parseMultipart(raw, boundary[1] ?? boundary[2]);
  const text = raw.toString('utf8');
  if (/json/i.test(contentType)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The parts of a multipart/form-data body by field name: text, or a FakeFile for a file part. */
export function parseMultipart(body: Buffer, boundary: string): Record<string, string | FakeFile> {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string | FakeFile> = {};
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    // A part sits between '--boundary\r\n' and '\r\n--boundary'.
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    const head = headerEnd >= 0 ? part.subarray(0, headerEnd).toString('utf8') : '';
    const name = /(?:^|;)\s*name="([^"]*)"/im.exec(head)?.[1];
    if (name !== undefined) {
      const data = part.subarray(headerEnd + 4);
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      const contentType = /^content-type:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
      fields[name] = filename === undefined ? data.toString('utf8') : { filename, contentType, data: new Uint8Array(data) };
    }
    start = next;
  }
  return fields;
}

/** The error reply a request earns before any handler sees it: a wrong key, an unknown path, a malformed body. */
function checkRequest(request: FakeRequest, apiKey: string | undefined): FakeReply | null {
  if (apiKey !== undefined && request.headers.authorization !== `Bearer ${apiKey}`) {
    return { status: 401, message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' };
  }
  const body = request.body;
  if (request.method === 'POST' && request.path === '/v1/chat/completions') {
    const valid = isRecord(body) && typeof body.model === 'string' && Array.isArray(body.messages) && body.messages.length > 0;
    return valid ? null : { status: 400, message: "'model' and a non-empty 'messages' are required." };
  }
  if (request.method === 'POST' && request.path === '/v1/audio/transcriptions') {
    const valid = isRecord(body) && isFile(body.file) && body.file.data.length > 0 && typeof body.model === 'string';
    return valid ? null : { status: 400, message: "A 'file' part and a 'model' field are required." };
  }
  return { status: 404, message: `Unknown request: ${request.method} ${request.path}`, code: 'unknown_url' };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFile(value: unknown): value is FakeFile {
  return isRecord(value) && value.data instanceof Uint8Array && typeof value.filename === 'string';
}

/* answers */

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, reply: { status: number; message: string; type?: string; code?: string | null }): void {
  const type = reply.type ?? (reply.status >= 500 ? 'server_error' : 'invalid_request_error');
  sendJson(res, reply.status, { error: { message: reply.message, type, param: null, code: reply.code ?? null } });
}

type ContentReply = Extract<FakeReply, { content: unknown }>;

let completionCount = 0;

function completionBase(body: unknown) {
  return {
    id: `chatcmpl-fake${++completionCount}`,
    created: Math.floor(Date.now() / 1000),
    model: isRecord(body) && typeof body.model === 'string' ? body.model : 'fake-model',
    system_fingerprint: 'fp_fake',
  };
}

function usageOf(body: unknown, reply: ContentReply): FakeUsage | undefined {
  if (reply.usage === null) return undefined;
  const messages = chatMessages(body);
  const prompt = reply.usage?.prompt_tokens ?? Math.ceil(messages.reduce((n, m) => n + textOf(m.content).length, 0) / 4);
  const completion = reply.usage?.completion_tokens ?? Math.ceil(joined(reply).length / 4);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: reply.usage?.total_tokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function joined(reply: ContentReply): string {
  return Array.isArray(reply.content) ? reply.content.join('') : reply.content;
}

function completion(body: unknown, reply: ContentReply) {
  return {
    ...completionBase(body),
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: joined(reply), refusal: null }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
    usage: usageOf(body, reply),
  };
}

/** Streams the reply as chat.completion.chunk events; stops quietly when the client goes away. */
async function streamCompletion(
  res: ServerResponse,
  body: Record<string, unknown>,
  reply: ContentReply,
  chunkDelayMs: number,
  signal: AbortSignal,
): Promise<void> {
  const streamOptions = body.stream_options;
  const withUsage = isRecord(streamOptions) && streamOptions.include_usage === true;
  // Asked for usage, every chunk carries `usage: null` but the last, which has no choices and the usage.
  const base = { ...completionBase(body), object: 'chat.completion.chunk', ...(withUsage ? { usage: null } : {}) };
  const chunks = Array.isArray(reply.content) ? reply.content : (reply.content.match(/\s*\S+/g) ?? [reply.content]);
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) => res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  send(delta({ role: 'assistant', content: '' }));
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await sleep(chunkDelayMs, undefined, { signal });
    if (signal.aborted) return;
    send(delta({ content: chunk }));
  }
  send(delta({}, reply.finishReason ?? 'stop'));
  if (withUsage) send([], { usage: usageOf(body, reply) });
  res.end('data: [DONE]\n\n');
}

/* reading chat requests (also for handlers) */

/** The messages of a chat completion request body (empty for anything else). */
export function chatMessages(body: unknown): ChatMessage[] {
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter((m): m is ChatMessage => isRecord(m) && typeof m.role === 'string');
}

/** The text of a message's content: a string, or the text parts of a content array. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** The system prompt of a chat request ('' when there is none). */
export function systemPrompt(body: unknown): string {
  return textOf(chatMessages(body).find((m) => m.role === 'system')?.content);
}

/** The last user message of a chat request ('' when there is none). */
export function lastUserMessage(body: unknown): string {
  const users = chatMessages(body).filter((m) => m.role === 'user');
  return textOf(users[users.length - 1]?.content);
}

/** The catch-up's data message: the JSON between <unread_context> markers of the first user message that has them. */
export function unreadContext(body: unknown): unknown {
  const data = chatMessages(body)
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content))
    .find((text) => text.startsWith('<unread_context>'));
  if (!data) return undefined;
  try {
    return JSON.parse(data.slice('<unread_context>'.length, data.lastIndexOf('</unread_context>')).trim()) as unknown;
  } catch {
    return undefined;
  }
}

/** The first JSON object or array that starts a line of the text and runs to its end, or undefined. */
export function findJson(text: string): unknown {
  for (let i = 0; i < text.length; i++) {
    if ((text[i] === '{' || text[i] === '[') && (i === 0 || text[i - 1] === '\n')) {
      try {
        return JSON.parse(text.slice(i)) as unknown;
      } catch {
        // not this one
      }
    }
  }
  return undefined;
}

/* scripted answers */

/**
 * A sensible answer without a per-test handler, by what the request looks like:
 * - transcription: `{text: transcript}` (SCRIPTED_TRANSCRIPT by default);
 * - streamed chat (refine): the last user message with its words upper-cased and Slack markup
 *   (<...>, :emoji:) kept, streamed word by word;
 * - classification (system prompt mentions "results"): `{"results": [...]}` for every conversation
 *   `id` in the user message's JSON, by keywords: urgent for incident/outage/urgent/asap/today/
 *   deadline/blocker/down/broken/eod, can_wait for a mention of the member, a DM, a question or a
 *   review, else fyi;
 * - catch-up (system prompt mentions "action"; the unread context in the user message between
 *   <unread_context> markers): JSON {message, conversationIds, action}: a yes confirms, a no declines, 'clear'/'FYI'/'mark ... read' proposes marking FYI read, anything else
 *   sums up the counts and names the urgent conversations first;
 * - anything else with 'Sources:' (answer): the first source's text, citing [1]; with no
 *   numbered source, that nothing was found;
 * - otherwise: 'You said: <last user message>'.
 */
export function scriptedReply(request: FakeRequest, transcript = SCRIPTED_TRANSCRIPT): FakeReply {
  if (request.path.endsWith('/audio/transcriptions')) return { text: transcript };
  const body = request.body;
  const system = systemPrompt(body);
  const user = lastUserMessage(body);
  if (isRecord(body) && body.stream === true) return { content: shout(user) };
  if (system.includes('"results"')) return { content: JSON.stringify({ results: scriptedClassifications(findJson(user)) }) };
  if (system.includes('"action"')) return { content: JSON.stringify(scriptedCatchup(unreadContext(body), user)) };
  if (user.includes('Sources:')) return { content: scriptedAnswer(user) };
  return { content: `You said: ${user}` };
}

/** Upper-cases the words, not the Slack markup. */
function shout(text: string): string {
  return text
    .split(/(<[^>]*>|:[a-z0-9_+-]+:)/i)
    .map((part, i) => (i % 2 ? part : part.toUpperCase()))
    .join('');
}

const URGENT_WORDS = /\b(urgent|asap|incident|outage|down|sev ?[12]|blocker|blocking|today|deadline|broken|eod)\b/i;
const CAN_WAIT_WORDS = /\?|\b(review|feedback|when you can|tomorrow|next week)\b/i;

function scriptedClassifications(prompt: unknown) {
  const conversations = isRecord(prompt) && Array.isArray(prompt.conversations) ? prompt.conversations.filter(isRecord) : [];
  return conversations.map((conversation) => {
    const text = JSON.stringify(conversation);
    const urgent = URGENT_WORDS.exec(text);
    if (urgent) return { id: conversation.id, category: 'urgent', reason: `Mentions "${urgent[1]}"`, triggers: [urgent[1]], confidence: 0.85 };
    const direct = conversation.type === 'dm' || text.includes('"mentionsYou":true');
    const ask = CAN_WAIT_WORDS.exec(text);
    if (direct || ask) {
      const why = direct ? 'Asks you directly' : `Mentions "${ask?.[0]}"`;
      return { id: conversation.id, category: 'can_wait', reason: why, triggers: [why], confidence: 0.7 };
    }
    return { id: conversation.id, category: 'fyi', reason: 'No action needed from you', triggers: ['no ask'], confidence: 0.6 };
  });
}

function scriptedCatchup(context: unknown, message: string) {
  const conversations = isRecord(context) && Array.isArray(context.conversations) ? context.conversations.filter(isRecord) : [];
  const ids = (category: string) => conversations.filter((c) => c.category === category).map((c) => String(c.id));
  const text = message.trim().toLowerCase();
  if (/^(yes|yeah|yep|sure|ok|okay|do it|go ahead|please do|confirm)\b/.test(text)) {
    return { message: 'Done: marking them as read.', conversationIds: [], action: 'confirm' };
  }
  if (/^(no|nope|cancel|don't|do not|not now|never mind)\b/.test(text)) {
    return { message: "OK, I'll leave them unread.", conversationIds: [], action: 'decline' };
  }
  if (/\b(fyi|clear)\b|mark .*read/.test(text)) {
    const fyi = ids('fyi');
    if (!fyi.length) return { message: 'There are no FYI conversations to clear.', conversationIds: [], action: null };
    return { message: `I can mark ${fyi.length} FYI conversations as read. Shall I?`, conversationIds: fyi.slice(0, 10), action: 'propose_mark_fyi_read' };
  }
  const first = [...ids('urgent'), ...conversations.map((c) => String(c.id))].filter((id, i, all) => all.indexOf(id) === i).slice(0, 3);
  const titles = first.map((id) => String(conversations.find((c) => String(c.id) === id)?.title ?? id));
  const summary = `You have ${conversations.length} unread conversations: ${ids('urgent').length} urgent, ${ids('can_wait').length} can wait, ${ids('fyi').length} FYI.`;
  return { message: titles.length ? `${summary} Start with ${titles.join(', ')}.` : summary, conversationIds: first, action: null };
}

function scriptedAnswer(user: string): string {
  const first = /^\[1\] (.*)$/m.exec(user)?.[1];
  return first ? `Here is what I found: ${first} [1]` : 'I could not find anything about that in your messages.';
}
