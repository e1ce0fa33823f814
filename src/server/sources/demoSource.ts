/**
 * The built-in demo workspace source. On first start it streams the deterministic
 * generator into the store, in batches cut at conversation boundaries (a batch always
 * holds whole conversations, which ImportBatch requires). The demo member belongs to two
 * workspaces with different data, so switching workspace can be tried without Slack.
 */
import type { AiCategory } from '../../model/types';
import type { ServerLogger } from '../log';
import type { ConversationRecord, ImportBatch, Store } from '../store/types';
import { generateDemoWorkspace, type DemoSize } from './demo/generator';
import type { FetchSummary, SignIn, WorkspaceSource } from './types';

export interface DemoWorkspaceDef {
  id: string;
  name: string;
  memberUserId: string;
  seedOffset: number;
  size: DemoSize | 'same';
}

/** The demo account's two workspaces: the main one (at the configured size) and a small second one. */
export const DEMO_WORKSPACES: readonly DemoWorkspaceDef[] = [
  { id: 'T0ACMEC01', name: 'Acme Corp', memberUserId: 'U0SIFTME1', seedOffset: 0, size: 'same' },
  { id: 'T0GLOBX02', name: 'Globex Labs', memberUserId: 'U0SIFTME2', seedOffset: 7919, size: 'small' },
];
export const DEMO_ACCOUNT = 'A0DEMO';
const BATCH_RECORDS = 20_000;

export interface DemoSourceOptions {
  seed: number;
  size: DemoSize;
  now: () => number;
  logger?: ServerLogger;
}

export class DemoSource implements WorkspaceSource {
  readonly mode = 'demo' as const;
  /** Ground truth per workspace and conversation, for the AI issue's accuracy check. */
  readonly truth = new Map<string, AiCategory>();

  constructor(readonly options: DemoSourceOptions) {}

  get workspaces(): readonly DemoWorkspaceDef[] {
    return DEMO_WORKSPACES;
  }

  async prepare(store: Store): Promise<void> {
    for (const def of DEMO_WORKSPACES) {
      await store.upsertWorkspace({ id: def.id, name: def.name, domain: `${def.name.toLowerCase().replace(/\W+/g, '-')}.demo`, source: 'demo' });
      if (!(await store.workspaceImported(def.id))) {
        // A start that died mid-import left part of a workspace: start it over.
        if (await store.workspaceHasData(def.id)) await store.clearWorkspaceData(def.id);
        await this.importWorkspace(store, def);
        await store.markWorkspaceImported(def.id);
      }
      await store.addMembership(DEMO_ACCOUNT, def.id, def.memberUserId);
    }
  }

  private async importWorkspace(store: Store, def: DemoWorkspaceDef): Promise<void> {
    const size = def.size === 'same' ? this.options.size : def.size;
    const started = Date.now();
    let batch: Required<ImportBatch> = { users: [], conversations: [], messages: [], readMarks: [] };
    let records = 0;
    let conversations = 0;
    const flush = async () => {
      await store.importBatch(def.id, batch);
      batch = { users: [], conversations: [], messages: [], readMarks: [] };
      records = 0;
    };
    for (const record of generateDemoWorkspace({
      seed: this.options.seed + def.seedOffset,
      size,
      workspaceId: def.id,
      workspaceName: def.name,
      now: this.options.now(),
      memberUserId: def.memberUserId,
    })) {
      switch (record.kind) {
        case 'user':
          batch.users.push(record.user);
          break;
        case 'conversation': {
          if (records >= BATCH_RECORDS) await flush();
          const c = record.conversation;
          const conversation: ConversationRecord = { ...c };
          delete (conversation as { topic?: string }).topic;
          batch.conversations.push(conversation);
          conversations += 1;
          break;
        }
        case 'message': {
          const { conversation_id, ...message } = record.message;
          batch.messages.push({ ...message, conversation_id });
          break;
        }
        case 'read_mark':
          batch.readMarks.push({ conversation_id: record.conversation_id, user_id: record.user_id, last_read: record.last_read });
          break;
      }
      records += 1;
    }
    await flush();
    this.options.logger?.log('info', 'demo workspace generated', { workspace: def.id, size, conversations, ms: Date.now() - started });
  }

  async demoSignIn(store: Store, as?: string): Promise<SignIn | null> {
    const main = DEMO_WORKSPACES[0]!;
    if (!as || as === main.memberUserId) return { accountId: DEMO_ACCOUNT, workspaceId: main.id, userId: main.memberUserId };
    const user = await store.getUser(main.id, as);
    if (!user) return null;
    return { accountId: await store.accountFor(main.id, as), workspaceId: main.id, userId: as };
  }

  async fetchAll(store: Store, workspaceId: string, userId: string): Promise<FetchSummary> {
    const [{ total }, users, messages] = await Promise.all([
      store.listConversations(workspaceId, userId, { limit: 0 }),
      store.listUsers(workspaceId),
      store.countMessages(workspaceId),
    ]);
    return { workspaces: 1, users: users.length, conversations: total, messages };
  }
}
