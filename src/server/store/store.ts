/**
 * The store (DESIGN §7) as the sum of its aggregates over one database handle (issue 15 §1): the same code runs on
 * the embedded SQLite (store/sqlite.ts) and on PostgreSQL (store/postgres.ts). Each line below hands one call of
 * the Store interface to the aggregate that owns it; none holds logic of its own.
 *
 *   workspaces, accounts, people ......... workspaceRecords.ts
 *   sessions, stream tickets, sign-ins ... sessionRecords.ts
 *   conversations, messages, read state .. conversationRecords.ts (rows: conversationRows.ts)
 *   imports and source batches ........... sourceBatches.ts
 *   search ............................... searchRecords.ts
 *   labels and lessons ................... labelRecords.ts
 *   views ................................ viewRecords.ts
 *   catch-up, AI budget, waitlist ........ memberRecords.ts
 *   Slack credentials, names, sync ....... sourceRecords.ts
 *   the event log ........................ eventLog.ts
 */
import type { Db } from './db';
import { ConversationRecords } from './conversationRecords';
import { EventLog } from './eventLog';
import { LabelRecords } from './labelRecords';
import { MemberRecords } from './memberRecords';
import { SearchRecords } from './searchRecords';
import { SessionRecords } from './sessionRecords';
import { SourceBatches } from './sourceBatches';
import { SourceRecords } from './sourceRecords';
import type { EventLogPruned, Store } from './types';
import { ViewRecords } from './viewRecords';
import { WorkspaceRecords } from './workspaceRecords';

export class SiftStore implements Store {
  private readonly workspaces: WorkspaceRecords;
  private readonly sessions: SessionRecords;
  private readonly conversations: ConversationRecords;
  private readonly batches: SourceBatches;
  private readonly search: SearchRecords;
  private readonly labels: LabelRecords;
  private readonly views: ViewRecords;
  private readonly members: MemberRecords;
  private readonly sources: SourceRecords;
  private readonly events: EventLog;
  /** A pruning pass in progress (it yields between chunks): closing waits for it. */
  private pruning: Promise<unknown> = Promise.resolve();

  constructor(
    /** The database handle: the store's own connection (SQLite) or pool (PostgreSQL). */
    readonly handle: Db,
  ) {
    const db = handle;
    this.events = new EventLog(db);
    this.workspaces = new WorkspaceRecords(db);
    this.sessions = new SessionRecords(db);
    this.conversations = new ConversationRecords(db, this.events);
    this.batches = new SourceBatches(db, this.events);
    this.search = new SearchRecords(db);
    this.labels = new LabelRecords(db, this.events);
    this.views = new ViewRecords(db, this.events);
    this.members = new MemberRecords(db);
    this.sources = new SourceRecords(db);
  }

  /* workspaces, accounts, people */
  readonly upsertWorkspace: Store['upsertWorkspace'] = (workspace) => this.workspaces.upsertWorkspace(workspace);
  readonly getWorkspace: Store['getWorkspace'] = (id) => this.workspaces.getWorkspace(id);
  readonly workspaceImported: Store['workspaceImported'] = (id) => this.workspaces.workspaceImported(id);
  readonly markWorkspaceImported: Store['markWorkspaceImported'] = (id) => this.workspaces.markWorkspaceImported(id);
  readonly addMembership: Store['addMembership'] = (accountId, workspaceId, userId) => this.workspaces.addMembership(accountId, workspaceId, userId);
  readonly memberships: Store['memberships'] = (accountId) => this.workspaces.memberships(accountId);
  readonly accountFor: Store['accountFor'] = (workspaceId, userId) => this.workspaces.accountFor(workspaceId, userId);
  readonly getUser: Store['getUser'] = (workspaceId, userId) => this.workspaces.getUser(workspaceId, userId);
  readonly listUsers: Store['listUsers'] = (workspaceId) => this.workspaces.listUsers(workspaceId);
  readonly userData: Store['userData'] = (workspaceId, userIds) => this.workspaces.userData(workspaceId, userIds);
  readonly workspaceHasData: Store['workspaceHasData'] = (id) => this.conversations.hasData(id);
  readonly clearWorkspaceData: Store['clearWorkspaceData'] = (id) => this.conversations.clearWorkspace(id);

  /* sessions, stream tickets, sign-in states */
  readonly createSession: Store['createSession'] = (tokenHash, session) => this.sessions.createSession(tokenHash, session);
  readonly getSession: Store['getSession'] = (tokenHash) => this.sessions.getSession(tokenHash);
  readonly touchSession: Store['touchSession'] = (tokenHash, at) => this.sessions.touchSession(tokenHash, at);
  readonly pruneSessions: Store['pruneSessions'] = (createdBefore, seenBefore) => this.sessions.pruneSessions(createdBefore, seenBefore);
  readonly switchSessionWorkspace: Store['switchSessionWorkspace'] = (tokenHash, workspaceId, userId) =>
    this.sessions.switchSessionWorkspace(tokenHash, workspaceId, userId);
  readonly deleteSession: Store['deleteSession'] = (tokenHash) => this.sessions.deleteSession(tokenHash);
  readonly deleteSessionsOf: Store['deleteSessionsOf'] = (workspaceId, userId) => this.sessions.deleteSessionsOf(workspaceId, userId);
  readonly createStreamTicket: Store['createStreamTicket'] = (ticketHash, tokenHash, expiresAt) =>
    this.sessions.createStreamTicket(ticketHash, tokenHash, expiresAt);
  readonly takeStreamTicket: Store['takeStreamTicket'] = (ticketHash, now) => this.sessions.takeStreamTicket(ticketHash, now);
  readonly saveOAuthState: Store['saveOAuthState'] = (stateHash, browserHash, expiresAt, addTo) =>
    this.sessions.saveOAuthState(stateHash, browserHash, expiresAt, addTo);
  readonly takeOAuthState: Store['takeOAuthState'] = (stateHash) => this.sessions.takeOAuthState(stateHash);

  /* conversations, messages, read state */
  readonly listConversations: Store['listConversations'] = (workspaceId, userId, options) => this.conversations.list(workspaceId, userId, options);
  readonly getConversation: Store['getConversation'] = (workspaceId, userId, conversationId) => this.conversations.get(workspaceId, userId, conversationId);
  readonly listMessages: Store['listMessages'] = (workspaceId, conversationId, limit) => this.conversations.messages(workspaceId, conversationId, limit);
  readonly getMessage: Store['getMessage'] = (workspaceId, conversationId, ts) => this.conversations.message(workspaceId, conversationId, ts);
  readonly conversationRecord: Store['conversationRecord'] = (workspaceId, conversationId) => this.conversations.record(workspaceId, conversationId);
  readonly insertMessage: Store['insertMessage'] = (input, build) => this.conversations.insertMessage(input, build);
  readonly sentMessage: Store['sentMessage'] = (workspaceId, userId, clientMsgId) => this.conversations.sent(workspaceId, userId, clientMsgId);
  readonly markRead: Store['markRead'] = (workspaceId, userId, conversationId, lastRead, at, build) =>
    this.conversations.markRead(workspaceId, userId, conversationId, lastRead, at, build);
  readonly unreadConversations: Store['unreadConversations'] = (workspaceId, userId, limit) => this.conversations.unread(workspaceId, userId, limit);
  readonly latestFromOthers: Store['latestFromOthers'] = (workspaceId, conversationId, userId) =>
    this.conversations.latestFromOthers(workspaceId, conversationId, userId);
  readonly countMessages: Store['countMessages'] = (workspaceId) => this.conversations.countMessages(workspaceId);
  readonly revokeAccess: Store['revokeAccess'] = (workspaceId, userId, conversationIds, at, build) =>
    this.conversations.revokeAccess(workspaceId, userId, conversationIds, at, build);
  readonly renameConversation: Store['renameConversation'] = (workspaceId, conversationId, name, at, build) =>
    this.conversations.rename(workspaceId, conversationId, name, at, build);

  /* imports and source batches */
  readonly importBatch: Store['importBatch'] = (workspaceId, batch) => this.batches.importBatch(workspaceId, batch);
  readonly applySourceBatch: Store['applySourceBatch'] = (workspaceId, batch, at, build) => this.batches.applySourceBatch(workspaceId, batch, at, build);

  /* search */
  readonly searchMessages: Store['searchMessages'] = (workspaceId, userId, query, limit) => this.search.messages(workspaceId, userId, query, limit);
  readonly searchConversations: Store['searchConversations'] = (workspaceId, userId, text, limit) =>
    this.search.conversations(workspaceId, userId, text, limit);
  readonly searchUsers: Store['searchUsers'] = (workspaceId, text, limit) => this.search.users(workspaceId, text, limit);

  /* labels and lessons */
  readonly setLabel: Store['setLabel'] = (workspaceId, userId, conversationId, label, at, build) =>
    this.labels.setLabel(workspaceId, userId, conversationId, label, at, build);
  readonly setAiLabels: Store['setAiLabels'] = (workspaceId, userId, labels, at, build) => this.labels.setAiLabels(workspaceId, userId, labels, at, build);
  readonly addLesson: Store['addLesson'] = (workspaceId, userId, lesson) => this.labels.addLesson(workspaceId, userId, lesson);
  readonly listLessons: Store['listLessons'] = (workspaceId, userId) => this.labels.listLessons(workspaceId, userId);

  /* views */
  readonly listCustomViews: Store['listCustomViews'] = (workspaceId, userId, parentViewId) => this.views.listCustomViews(workspaceId, userId, parentViewId);
  readonly getCustomView: Store['getCustomView'] = (workspaceId, userId, id) => this.views.getCustomView(workspaceId, userId, id);
  readonly createCustomView: Store['createCustomView'] = (workspaceId, userId, view, at, build) =>
    this.views.createCustomView(workspaceId, userId, view, at, build);
  readonly updateCustomView: Store['updateCustomView'] = (workspaceId, userId, id, patch, at, build) =>
    this.views.updateCustomView(workspaceId, userId, id, patch, at, build);
  readonly deleteCustomView: Store['deleteCustomView'] = (workspaceId, userId, id, at, build) =>
    this.views.deleteCustomView(workspaceId, userId, id, at, build);
  readonly reorderCustomViews: Store['reorderCustomViews'] = (workspaceId, userId, positions, at, build) =>
    this.views.reorderCustomViews(workspaceId, userId, positions, at, build);
  readonly listBuiltinViewSettings: Store['listBuiltinViewSettings'] = (workspaceId, userId) => this.views.listBuiltinViewSettings(workspaceId, userId);
  readonly setBuiltinVisibility: Store['setBuiltinVisibility'] = (workspaceId, userId, viewId, isVisible, at, build) =>
    this.views.setBuiltinVisibility(workspaceId, userId, viewId, isVisible, at, build);
  readonly initializeBuiltinViews: Store['initializeBuiltinViews'] = (workspaceId, userId, at, build) =>
    this.views.initializeBuiltinViews(workspaceId, userId, at, build);

  /* catch-up sessions, the AI budget, the waitlist */
  readonly saveCatchupSession: Store['saveCatchupSession'] = (record) => this.members.saveCatchupSession(record);
  readonly getCatchupSession: Store['getCatchupSession'] = (workspaceId, userId, id) => this.members.getCatchupSession(workspaceId, userId, id);
  readonly deleteCatchupSession: Store['deleteCatchupSession'] = (workspaceId, userId, id) => this.members.deleteCatchupSession(workspaceId, userId, id);
  readonly pruneCatchupSessions: Store['pruneCatchupSessions'] = (workspaceId, userId, cutoff, keep) =>
    this.members.pruneCatchupSessions(workspaceId, userId, cutoff, keep);
  readonly aiTokensUsed: Store['aiTokensUsed'] = (workspaceId, userId, day) => this.members.aiTokensUsed(workspaceId, userId, day);
  readonly addAiTokens: Store['addAiTokens'] = (workspaceId, userId, day, tokens) => this.members.addAiTokens(workspaceId, userId, day, tokens);
  readonly addWaitlistSignup: Store['addWaitlistSignup'] = (email, platform, at) => this.members.addWaitlistSignup(email, platform, at);
  readonly countWaitlist: Store['countWaitlist'] = (platform) => this.members.countWaitlist(platform);

  /* workspace sources (Slack) */
  readonly saveCredential: Store['saveCredential'] = (credential) => this.sources.saveCredential(credential);
  readonly getCredential: Store['getCredential'] = (workspaceId, userId) => this.sources.getCredential(workspaceId, userId);
  readonly replaceCredentialSecret: Store['replaceCredentialSecret'] = (workspaceId, userId, expected, secret) =>
    this.sources.replaceCredentialSecret(workspaceId, userId, expected, secret);
  readonly listCredentials: Store['listCredentials'] = () => this.sources.listCredentials();
  readonly deleteCredential: Store['deleteCredential'] = (workspaceId, userId) => this.sources.deleteCredential(workspaceId, userId);
  readonly saveSourceNames: Store['saveSourceNames'] = (workspaceId, kind, names) => this.sources.saveSourceNames(workspaceId, kind, names);
  readonly sourceNames: Store['sourceNames'] = (workspaceId, kind, ids) => this.sources.sourceNames(workspaceId, kind, ids);
  readonly sourceEventSeen: Store['sourceEventSeen'] = (workspaceId, eventId) => this.sources.sourceEventSeen(workspaceId, eventId);
  readonly recordSourceEvent: Store['recordSourceEvent'] = (workspaceId, eventId, at) => this.sources.recordSourceEvent(workspaceId, eventId, at);
  readonly pruneSourceEvents: Store['pruneSourceEvents'] = (before) => this.sources.pruneSourceEvents(before);
  readonly getSyncState: Store['getSyncState'] = <T>(workspaceId: string, userId: string) => this.sources.getSyncState<T>(workspaceId, userId);
  readonly setSyncState: Store['setSyncState'] = (workspaceId, userId, state, at) => this.sources.setSyncState(workspaceId, userId, state, at);

  /* the event log */
  readonly appendEvents: Store['appendEvents'] = (workspaceId, events, at) => this.events.appendAlone(workspaceId, events, at);
  readonly currentSequence: Store['currentSequence'] = (workspaceId, userId) => this.events.current(workspaceId, userId);
  readonly eventLogBounds: Store['eventLogBounds'] = (workspaceId, userId) => this.events.bounds(workspaceId, userId);
  readonly eventsAfter: Store['eventsAfter'] = (workspaceId, userId, after, limit = 10_000) => this.events.after(workspaceId, userId, after, limit);
  readonly pruneEventLog: Store['pruneEventLog'] = (before, maxPerMember) => {
    const pruning: Promise<EventLogPruned> = this.events.prune(before, maxPerMember);
    this.pruning = pruning.catch(() => undefined);
    return pruning;
  };

  async close(): Promise<void> {
    await this.pruning;
    await this.handle.close();
  }
}
