/**
 * The demo simulator: other members post believable messages into the demo member's
 * conversations, through the same path as a real send (store, event log, streams).
 */
import type { ServerLogger } from '../log';
import type { LiveHub } from '../live/hub';
import { postMessage } from '../messaging';
import type { Store } from '../store/types';
import { createRandom, demoMessageText } from './demo/generator';
import type { DemoSource } from './demoSource';
import type { AiCategory } from '../../model/types';

export interface SimulatorOptions {
  store: Store;
  hub: LiveHub;
  now: () => number;
  ratePerMinute: number;
  seed: number;
  source: DemoSource;
  logger?: ServerLogger;
}

const CATEGORY_WEIGHTS: Array<[AiCategory, number]> = [
  ['urgent', 0.2],
  ['can_wait', 0.35],
  ['fyi', 0.45],
];

/** Posts one simulated message; answers what it posted, or null when there was nothing to post into. */
export async function simulateOne(options: Omit<SimulatorOptions, 'ratePerMinute'>, rng: () => number) {
  const { store } = options;
  const def = options.source.workspaces[0]!;
  const { total } = await store.listConversations(def.id, def.memberUserId, { limit: 0 });
  if (total === 0) return null;
  const [summary] = (await store.listConversations(def.id, def.memberUserId, { offset: Math.floor(rng() * total), limit: 1 })).conversations;
  if (!summary) return null;
  const senders = summary.member_ids.filter((id) => id !== def.memberUserId);
  if (senders.length === 0) return null;
  const sender = senders[Math.floor(rng() * senders.length)]!;
  let r = rng();
  let category: AiCategory = 'fyi';
  for (const [c, w] of CATEGORY_WEIGHTS) {
    if (r < w) {
      category = c;
      break;
    }
    r -= w;
  }
  const author = await store.getUser(def.id, sender);
  const text = demoMessageText(rng, category, {
    memberId: def.memberUserId,
    userIds: summary.member_ids,
    authorId: sender,
    type: summary.type,
    bot: author?.is_bot ? author.name : undefined,
  });
  const result = await postMessage({ store, hub: options.hub, now: options.now }, { workspaceId: def.id, userId: sender, channel: summary.id, text });
  return result.message;
}

export function startSimulator(options: SimulatorOptions): () => void {
  const rng = createRandom(options.seed ^ 0x5eed);
  const interval = Math.max(50, Math.round(60_000 / options.ratePerMinute));
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    simulateOne(options, rng)
      .catch((error: unknown) => options.logger?.log('warn', 'simulator post failed', { error: String(error) }))
      .finally(() => (busy = false));
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}
