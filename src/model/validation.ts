/** SPEC §5 validation rules shared by the page (quick checks) and the server (the gate). */
import { MAX_MESSAGE_LENGTH } from './constants';
import { isTs } from './ts';

export interface OutgoingMessage {
  channel?: unknown;
  text?: unknown;
  thread_ts?: unknown;
}

/** Thread conversation ids have the form `${parentConversationId}:${threadTs}`. */
export function parseThreadId(id: string): { parentId: string; threadTs: string } | null {
  const colon = id.lastIndexOf(':');
  if (colon <= 0) return null;
  const threadTs = id.slice(colon + 1);
  return isTs(threadTs) ? { parentId: id.slice(0, colon), threadTs } : null;
}

/** A channel, DM or group id as Slack and the demo make them (letters, digits, '_' and '-'). */
const PLAIN_CONVERSATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Whether a value has the shape of a conversation id: a plain id, or a thread's
 * `${parentId}:${threadTs}`. For ids that arrive from outside (a link's `open=`): a bad one is
 * ignored, not looked up.
 */
export function isConversationId(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const thread = parseThreadId(value);
  return PLAIN_CONVERSATION_ID.test(thread ? thread.parentId : value);
}

export function threadId(parentId: string, threadTs: string): string {
  return `${parentId}:${threadTs}`;
}

/** The errors of a message about to be sent; empty when it may go. */
export function validateOutgoingMessage(message: OutgoingMessage): string[] {
  const errors: string[] = [];
  if (typeof message.channel !== 'string' || message.channel.trim() === '') errors.push('channel is required');
  if (typeof message.text !== 'string' || message.text.trim() === '') errors.push('Message text cannot be empty');
  else if (message.text.length > MAX_MESSAGE_LENGTH) errors.push(`Message is too long (maximum is ${MAX_MESSAGE_LENGTH} characters)`);
  if (message.thread_ts !== undefined && message.thread_ts !== null && !isTs(message.thread_ts)) errors.push('thread_ts is not a valid timestamp');
  if (typeof message.channel === 'string' && parseThreadId(message.channel) && (message.thread_ts === undefined || message.thread_ts === null)) {
    errors.push('A thread reply requires thread_ts');
  }
  return errors;
}
