/**
 * The deterministic Slack workspace behind the fake Slack server (tests/fakes/slackServer.ts):
 * users, conversations with their members, messages with thread replies, and each user's
 * `last_read` per conversation. The data is kept in Slack's own wire shapes (the objects that
 * users.list, conversations.history and conversations.replies answer), so the server hands them
 * out as they are.
 *
 * Same `seed`, `size` and `now` → the same workspace, byte for byte. Messages are spread over the
 * 14 days before `now` (Date.now() by default), so they look recent to Sift.
 */

export interface FakeProfile {
  title: string;
  phone: string;
  skype: string;
  real_name: string;
  real_name_normalized: string;
  display_name: string;
  display_name_normalized: string;
  first_name: string;
  last_name: string;
  status_text: string;
  status_emoji: string;
  status_expiration: number;
  avatar_hash: string;
  /** Only answered to tokens with users:read.email. */
  email?: string;
  image_24: string;
  image_32: string;
  image_48: string;
  image_72: string;
  image_192: string;
  image_512: string;
  team: string;
  bot_id?: string;
  api_app_id?: string;
  always_active?: boolean;
}

export interface FakeUser {
  id: string;
  team_id: string;
  name: string;
  deleted: boolean;
  color: string;
  real_name: string;
  tz: string;
  tz_label: string;
  tz_offset: number;
  profile: FakeProfile;
  is_admin: boolean;
  is_owner: boolean;
  is_primary_owner: boolean;
  is_restricted: boolean;
  is_ultra_restricted: boolean;
  is_bot: boolean;
  is_app_user: boolean;
  updated: number;
  is_email_confirmed: boolean;
  who_can_share_contact_card: string;
}

export interface FakeReaction {
  name: string;
  users: string[];
  count: number;
}

/** A message as conversations.history / conversations.replies answer it. */
export interface FakeMessage {
  type: 'message';
  ts: string;
  user?: string;
  text: string;
  team?: string;
  /** channel_join, channel_leave, bot_message, tombstone… (absent for plain user messages) */
  subtype?: string;
  bot_id?: string;
  username?: string;
  inviter?: string;
  client_msg_id?: string;
  /** Set on thread parents (== ts) and on replies (== the parent's ts). */
  thread_ts?: string;
  /** Replies only. */
  parent_user_id?: string;
  /** Thread parents only. */
  reply_count?: number;
  reply_users_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  is_locked?: boolean;
  subscribed?: boolean;
  edited?: { user: string; ts: string };
  reactions?: FakeReaction[];
  hidden?: boolean;
  /** App posts: the app (with bot_id), its bot profile (app bot users only), a webhook's icon override. */
  app_id?: string;
  bot_profile?: FakeBotProfile;
  icons?: Record<string, string>;
  blocks?: Array<Record<string, unknown>>;
  attachments?: Array<Record<string, unknown>>;
  files?: Array<Record<string, unknown>>;
  upload?: boolean;
  display_as_bot?: boolean;
  /** Slack Connect authors: their team and a short profile. */
  user_team?: string;
  source_team?: string;
  user_profile?: Record<string, unknown>;
  /** thread_broadcast: the thread's root. */
  root?: Record<string, unknown>;
  /** huddle_thread */
  room?: Record<string, unknown>;
  no_notifications?: boolean;
  permalink?: string;
  /** System subtypes: channel_topic, channel_purpose, channel_name, channel_archive, bot_add/remove, pinned_item. */
  topic?: string;
  purpose?: string;
  name?: string;
  old_name?: string;
  members?: string[];
  bot_link?: string;
  item_type?: string;
  /** Anything else Slack sends, kept as given (messages posted through the handle's postMessage). */
  [key: string]: unknown;
}

/** objs_bot_profile, as carried on app bot users' messages. */
export interface FakeBotProfile {
  id: string;
  deleted: boolean;
  name: string;
  updated: number;
  app_id: string;
  icons: { image_36: string; image_48: string; image_72: string };
  team_id: string;
}

/** A bot as bots.info answers it: app bots (with `user_id`) and webhook/integration bots (none). */
export interface FakeBot {
  id: string;
  deleted: boolean;
  name: string;
  updated: number;
  app_id: string;
  user_id?: string;
  icons: { image_36: string; image_48: string; image_72: string };
}

/** objs_subteam, as usergroups.list answers it (users only with include_users). */
export interface FakeUsergroup {
  id: string;
  team_id: string;
  is_usergroup: boolean;
  is_subteam: boolean;
  name: string;
  description: string;
  handle: string;
  is_external: boolean;
  date_create: number;
  date_update: number;
  date_delete: number;
  auto_type: string | null;
  auto_provision: boolean;
  enterprise_subteam_id: string;
  created_by: string;
  updated_by: string;
  deleted_by: string | null;
  prefs: { channels: string[]; groups: string[] };
  users: string[];
  user_count: number;
  channel_count: number;
}

export type FakeConversationKind = 'public_channel' | 'private_channel' | 'mpim' | 'im';

export interface FakeConversation {
  /** C… public channels, G… private channels and MPIMs (legacy-style ids), D… IMs. */
  id: string;
  kind: FakeConversationKind;
  /** Channel name; 'mpdm-a--b--c-1' for MPIMs; '' for IMs. */
  name: string;
  created: number;
  creator: string;
  is_archived: boolean;
  is_general: boolean;
  topic: { value: string; creator: string; last_set: number };
  purpose: { value: string; creator: string; last_set: number };
  /** User ids, in the order they joined. */
  members: string[];
  /** IMs: the other user (the IM is between members[0] and members[1]). */
  user?: string;
  /** Top-level messages and thread parents, oldest first. */
  messages: FakeMessage[];
  /** Thread replies by the parent's ts, oldest first. */
  replies: Record<string, FakeMessage[]>;
  /** Each member's last_read ts ('0000000000.000000' when nothing was read). */
  lastRead: Record<string, string>;
  /** Slack Connect: a channel shared with other teams (is_ext_shared), hosted by `host`. */
  shared?: { teamIds: string[]; host: string };
}

export interface FakeWorkspace {
  team: { id: string; name: string; domain: string };
  /** The app installed in the workspace (Socket Mode connection_info, api_app_id). */
  appId: string;
  /** Users in users.list order: humans first (the member first of all), then bots, Slackbot. */
  users: FakeUser[];
  conversations: FakeConversation[];
  /** The id of the first human user, the one who consents on the authorize page by default. */
  memberId: string;
  /** bots.info's registry: every bot that posts (app bots with their user, webhook bots without). */
  bots: FakeBot[];
  /** Slack Connect people from other teams: not in users.list, answered by users.info. */
  externalUsers: FakeUser[];
  /** usergroups.list's registry. */
  usergroups: FakeUsergroup[];
  /** emoji.list's registry: custom emoji name → image URL on the fake's host, or 'alias:<name>'. */
  emoji: Record<string, string>;
  /** Where the real-Slack content lives (null with `appPosts: false`). */
  extras: FakeExtras | null;
}

/** Landmarks of the real-Slack content (app posts, Slack Connect, system messages…), for tests. */
export interface FakeExtras {
  /** #alerts: PagerDuty, Alertmanager, Grafana, Statuspage, Opsgenie, Sentry, Datadog posts (some unread), system messages first. */
  alerts: string;
  /** #deploys: GitHub, Jenkins, CircleCI posts, and the human oddities (edits, me_message, broadcast, huddle, tombstone thread, mentions). */
  deploys: string;
  /** #team-updates: Geekbot, Polly, Workflow Builder, RSS posts. */
  teamUpdates: string;
  /** A public channel the member is not in, mentioned as <#C…> and <#C…|> (conversations.info answers it). */
  notJoined: string;
  /** An archived channel (the member was in it) ending with its channel_archive message. */
  archived: string;
  /** A Slack Connect channel (is_ext_shared) with the external person. */
  shared: string;
  /** The member's DM with the external person. */
  externalIm: string;
  /** The member's DMs with app bot users, by app key (gcal, zoom, jira). */
  appIms: Record<string, string>;
  /** The member's IM with Slackbot (holds the Slackbot reminder). */
  slackbotIm: string;
  externalTeam: { id: string; name: string; domain: string };
  externalUserId: string;
  guestId: string;
  deletedUserId: string;
  /** The human who posts most of the human oddities. */
  colleagueId: string;
  /** App key (APP_BOTS) → bot id / bot user id / app id. */
  botIds: Record<string, string>;
  botUserIds: Record<string, string>;
  /** Bots with no user: only bots.info knows them. */
  webhookBotIds: string[];
  usergroups: { oncall: string; sre: string; disabled: string };
  /** The public channel's `<!date^…>` epoch. */
  dateEpoch: number;
  /** Every APP_POSTS entry: where it was placed and whether it is unread for the member. */
  appPosts: Array<{ id: string; channel: string; ts: string; unread: boolean }>;
  /** Every TEXT_ONLY_INSIDE entry: where it was placed. */
  textOnlyInside: Array<{ id: string; word: string; where: string; channel: string; ts: string }>;
  /** ts of notable messages in #deploys (and the archive/huddle elsewhere). */
  ts: {
    tombstone: string;
    broadcast: string;
    huddle: string;
    me: string;
    edited: string;
    reactions: string;
    subteamLabelled: string;
    subteamBare: string;
    channelMentions: string;
    deletedUserPost: string;
    guestPost: string;
    externalPost: string;
    externalImPost: string;
  };
}

export interface WorkspaceOptions {
  seed?: number;
  size?: 'small' | 'default';
  /** ms; the newest seeded message is a little before this. Default Date.now(). */
  now?: number;
  /** Base for avatar URLs ('http://127.0.0.1:PORT'). */
  baseUrl?: string;
  /** The team's name and domain (default: Acme Rockets); e-mail addresses then use `<domain>.example.com`. */
  team?: { name: string; domain: string };
  /** The member's name (and e-mail), as when the same person is in several workspaces; the random
   *  stream is unchanged, so the rest of the workspace is what the seed alone makes. */
  member?: { first: string; last: string; email?: string };
  /** The real-Slack content (app posts, bots, Slack Connect, user groups, custom emoji, system and odd
   *  messages) added after the seeded content; default true. False: the workspace of before. */
  appPosts?: boolean;
}

import { APP_BOTS, APP_POSTS, FIX_COLLEAGUE, FIX_MEMBER, FIX_TEAM, TEXT_ONLY_INSIDE, instantiateFixture } from '../fixtures/slackAppPosts';

export const NEVER_READ = '0000000000.000000';

/** mulberry32 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** '1700000000.000100' from microseconds since the epoch. */
export function tsFromMicros(micros: number): string {
  const sec = Math.floor(micros / 1e6);
  const us = micros - sec * 1e6;
  return `${sec}.${String(us).padStart(6, '0')}`;
}

/** Microseconds since the epoch from a ts string (NaN when it is not one). */
export function microsFromTs(ts: string): number {
  if (!/^\d{1,10}(\.\d{1,6})?$/.test(ts)) return Number.NaN;
  const [sec, frac = ''] = ts.split('.');
  return Number(sec) * 1e6 + Number(frac.padEnd(6, '0'));
}

export function compareTs(a: string, b: string): number {
  return microsFromTs(a) - microsFromTs(b);
}

const FIRST = [
  'Ada',
  'Grace',
  'Linus',
  'Margaret',
  'Alan',
  'Barbara',
  'Dennis',
  'Frances',
  'Ken',
  'Radia',
  'Edsger',
  'Hedy',
  'Tim',
  'Katherine',
  'Guido',
  'Anita',
  'Bjarne',
  'Sophie',
  'Yukihiro',
  'Karen',
  'Donald',
  'Jean',
  'Niklaus',
  'Shafi',
  'Leslie',
  'Mary',
  'John',
  'Evelyn',
  'Rob',
  'Lynn',
  'Ward',
  'Carol',
  'Brian',
  'Ida',
  'Vint',
  'Joan',
  'Larry',
  'Elena',
  'Tomás',
  'Zoë',
  'Mateo',
  'Priya',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Turing',
  'Liskov',
  'Ritchie',
  'Allen',
  'Thompson',
  'Perlman',
  'Dijkstra',
  'Lamarr',
  'Berners-Lee',
  'Johnson',
  'van Rossum',
  'Borg',
  'Stroustrup',
  'Wilson',
  'Matsumoto',
  'Spärck Jones',
  'Knuth',
  'Sammet',
  'Wirth',
  'Goldwasser',
  'Lamport',
  'Keller',
  'McCarthy',
  'Boyd',
  'Pike',
  'Conway',
  'Cunningham',
  'Shaw',
  'Kernighan',
  'Rhodes',
  'Cerf',
  'Clarke',
  'Page',
  'Nuñez',
  'García',
  'Okafor',
];
const TITLES = ['Engineer', 'Designer', 'Product Manager', 'Support Lead', 'Data Scientist', 'Engineering Manager', 'Recruiter', 'Sales', ''];
const TZS: Array<[string, string, number]> = [
  ['America/Los_Angeles', 'Pacific Standard Time', -28800],
  ['America/New_York', 'Eastern Standard Time', -18000],
  ['Europe/London', 'Greenwich Mean Time', 0],
  ['Europe/Berlin', 'Central European Time', 3600],
  ['Asia/Tokyo', 'Japan Standard Time', 32400],
];
const CHANNEL_WORDS = [
  'eng',
  'design',
  'product',
  'support',
  'sales',
  'marketing',
  'ops',
  'infra',
  'data',
  'mobile',
  'web',
  'api',
  'growth',
  'security',
  'billing',
  'search',
  'onboarding',
  'releases',
  'incidents',
  'hiring',
  'finance',
  'legal',
  'docs',
  'qa',
  'platform',
  'payments',
  'analytics',
  'ml',
  'android',
  'ios',
  'perf',
  'oncall',
  'feedback',
  'events',
  'social',
];
const CHANNEL_SUFFIX = ['', '-team', '-alerts', '-chat', '-standup', '-help', '-announce', '-review', '-planning', '-emea', '-us'];
const EMOJI = ['tada', 'eyes', 'rocket', 'white_check_mark', 'thumbsup', 'fire', 'pray', 'thinking_face', 'heart', '100', 'wave', 'coffee'];
const TOPICS = [
  'deploys',
  'the Q3 roadmap',
  'the login bug',
  'onboarding docs',
  'the billing migration',
  'search latency',
  'the offsite',
  'release 2.4',
  'the design review',
  'customer feedback',
  'the on-call rotation',
  'flaky tests',
];
const LINKS: Array<[string, string]> = [
  ['https://github.com/acme/rocket/pull/1412', 'PR #1412'],
  ['https://docs.example.com/runbooks/deploy', 'deploy runbook'],
  ['https://acme.atlassian.net/browse/ROCK-88', 'ROCK-88'],
  ['https://status.example.com/incidents/42', 'incident 42'],
  ['https://www.figma.com/file/abc123/Inbox', 'Inbox mocks'],
];

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const between = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

function sample<T>(rand: () => number, xs: readonly T[], n: number): T[] {
  const copy = [...xs];
  const out: T[] = [];
  while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as T);
  return out;
}

function idMaker(rand: () => number) {
  const alphabet = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const used = new Set<string>();
  return (prefix: string, length = 10): string => {
    for (;;) {
      let id = prefix;
      for (let i = 0; i < length; i++) id += alphabet[Math.floor(rand() * alphabet.length)];
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
}

function hex(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rand() * 16).toString(16);
  return s;
}

function uuid(rand: () => number): string {
  const h = hex(rand, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A fresh client_msg_id (random, not seeded: for messages posted at run time). */
export function randomClientMsgId(): string {
  return uuid(Math.random);
}

function profileImages(baseUrl: string, id: string): Pick<FakeProfile, 'image_24' | 'image_32' | 'image_48' | 'image_72' | 'image_192' | 'image_512'> {
  const at = (size: number) => `${baseUrl}/avatars/${id}_${size}.png`;
  return { image_24: at(24), image_32: at(32), image_48: at(48), image_72: at(72), image_192: at(192), image_512: at(512) };
}

export function generateWorkspace(options: WorkspaceOptions = {}): FakeWorkspace {
  const seed = options.seed ?? 1;
  const small = options.size === 'small';
  const now = options.now ?? Date.now();
  const baseUrl = options.baseUrl ?? 'http://127.0.0.1';
  const rand = prng(seed);
  const newId = idMaker(prng(seed * 7919 + 17));
  const team = options.team
    ? { id: newId('T'), name: options.team.name, domain: options.team.domain }
    : small
      ? { id: newId('T'), name: 'Acme Rockets (small)', domain: 'acme-rockets-small' }
      : { id: newId('T'), name: 'Acme Rockets', domain: 'acme-rockets' };
  const emailDomain = options.team ? `${options.team.domain}.example.com` : 'acme-rockets.example.com';
  const appId = newId('A');
  const nowSec = Math.floor(now / 1000);

  // Users.
  const humanCount = small ? 6 : 36;
  const users: FakeUser[] = [];
  const firsts = sample(rand, FIRST, humanCount + 1);
  const lasts = sample(rand, LAST, humanCount + 1);
  if (options.member) {
    // The member goes first; a user who drew the same name takes the member's drawn one (names stay unique).
    const place = (xs: string[], value: string) => {
      const k = xs.indexOf(value);
      if (k > 0) xs[k] = xs[0] as string;
      xs[0] = value;
    };
    place(firsts, options.member.first);
    place(lasts, options.member.last);
  }
  const palette = ['9f69e7', '4bbe2e', 'e7392d', '3c989f', 'e0a729', 'dc7dbb', '5870dd', 'a63024'];
  const makeUser = (first: string, last: string, extra: Partial<FakeUser> = {}, profileExtra: Partial<FakeProfile> = {}): FakeUser => {
    const id = newId('U');
    const real = `${first} ${last}`.trim();
    const handle = `${first}.${last}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z.]/g, '');
    const [tz, tzLabel, tzOffset] = pick(rand, TZS);
    const display = rand() < 0.3 ? '' : rand() < 0.5 ? first : `${first.toLowerCase()}${last.charAt(0).toLowerCase()}`;
    const statusRoll = rand();
    const user: FakeUser = {
      id,
      team_id: team.id,
      name: handle,
      deleted: false,
      color: pick(rand, palette),
      real_name: real,
      tz,
      tz_label: tzLabel,
      tz_offset: tzOffset,
      profile: {
        title: pick(rand, TITLES),
        phone: '',
        skype: '',
        real_name: real,
        real_name_normalized: real.normalize('NFD').replace(/[\u0300-\u036f]/g, ''),
        display_name: display,
        display_name_normalized: display,
        first_name: first,
        last_name: last,
        status_text: statusRoll < 0.15 ? 'In a meeting' : statusRoll < 0.25 ? 'Out sick' : '',
        status_emoji: statusRoll < 0.15 ? ':spiral_calendar_pad:' : statusRoll < 0.25 ? ':face_with_thermometer:' : '',
        status_expiration: 0,
        avatar_hash: hex(rand, 12),
        email: `${handle}@${emailDomain}`,
        ...profileImages(baseUrl, id),
        team: team.id,
        ...profileExtra,
      },
      is_admin: false,
      is_owner: false,
      is_primary_owner: false,
      is_restricted: false,
      is_ultra_restricted: false,
      is_bot: false,
      is_app_user: false,
      updated: nowSec - between(rand, 86400, 86400 * 300),
      is_email_confirmed: true,
      who_can_share_contact_card: 'EVERYONE',
      ...extra,
    };
    return user;
  };
  for (let i = 0; i < humanCount; i++) {
    users.push(makeUser(firsts[i] as string, lasts[i] as string, i === 1 ? { is_admin: true, is_owner: true, is_primary_owner: true } : {}));
  }
  // One guest and one deactivated account (default size only).
  if (!small) {
    const guest = users[users.length - 1] as FakeUser;
    guest.is_restricted = true;
    const gone = makeUser(firsts[humanCount] as string, lasts[humanCount] as string, { deleted: true });
    delete gone.profile.email;
    users.push(gone);
  }
  const botNames: Array<[string, string]> = small
    ? [['deploybot', 'Deploy Bot']]
    : [
        ['deploybot', 'Deploy Bot'],
        ['pagerbot', 'Pager Bot'],
      ];
  const bots: FakeUser[] = [];
  for (const [handle, label] of botNames) {
    const botId = newId('B');
    const bot = makeUser(
      label,
      '',
      { is_bot: true, name: handle },
      { bot_id: botId, api_app_id: newId('A'), always_active: true, display_name: '', display_name_normalized: '', first_name: label, last_name: '' },
    );
    delete bot.profile.email;
    bot.real_name = label;
    bot.profile.real_name = label;
    bot.profile.real_name_normalized = label;
    bots.push(bot);
    users.push(bot);
  }
  // Slackbot: as Slack answers it, is_bot false.
  const slackbot: FakeUser = {
    ...makeUser('Slackbot', ''),
    id: 'USLACKBOT',
    name: 'slackbot',
    real_name: 'Slackbot',
    tz: 'America/Los_Angeles',
    tz_label: 'Pacific Standard Time',
    tz_offset: -28800,
    updated: 0,
  };
  slackbot.profile = {
    ...slackbot.profile,
    real_name: 'Slackbot',
    real_name_normalized: 'Slackbot',
    display_name: 'Slackbot',
    display_name_normalized: 'Slackbot',
    first_name: 'slackbot',
    last_name: '',
    title: '',
    status_text: '',
    status_emoji: '',
    ...profileImages(baseUrl, 'USLACKBOT'),
  };
  delete slackbot.profile.email;
  users.push(slackbot);

  const humans = users.filter((u) => !u.is_bot && !u.deleted && u.id !== 'USLACKBOT');
  const member = humans[0] as FakeUser;
  if (options.member?.email) member.profile.email = options.member.email;
  const others = humans.slice(1);

  // Conversations.
  const conversations: FakeConversation[] = [];
  const usedNames = new Set<string>();
  const channelName = (): string => {
    for (;;) {
      const name = `${pick(rand, CHANNEL_WORDS)}${pick(rand, CHANNEL_SUFFIX)}`;
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
      const numbered = `${name}-${between(rand, 2, 99)}`;
      if (!usedNames.has(numbered)) {
        usedNames.add(numbered);
        return numbered;
      }
    }
  };
  const created = () => nowSec - between(rand, 86400 * 30, 86400 * 900);
  const makeConversation = (kind: FakeConversationKind, name: string, members: string[], extra: Partial<FakeConversation> = {}): FakeConversation => {
    const prefix = kind === 'public_channel' ? 'C' : kind === 'im' ? 'D' : 'G';
    const when = created();
    const creator = members[0] ?? member.id;
    const channelish = kind === 'public_channel' || kind === 'private_channel';
    const topic = channelish && rand() < 0.6 ? `Everything about ${pick(rand, TOPICS)}` : '';
    const purpose = channelish && rand() < 0.6 ? `Discussion of ${name.replace(/-/g, ' ')}` : '';
    return {
      id: newId(prefix),
      kind,
      name,
      created: when,
      creator,
      is_archived: false,
      is_general: false,
      topic: { value: topic, creator: topic ? creator : '', last_set: topic ? when + 3600 : 0 },
      purpose: { value: purpose, creator: purpose ? creator : '', last_set: purpose ? when : 0 },
      members,
      messages: [],
      replies: {},
      lastRead: {},
      ...extra,
    };
  };
  const allHumanIds = humans.map((u) => u.id);
  const general = makeConversation('public_channel', 'general', allHumanIds, { is_general: true });
  usedNames.add('general');
  general.purpose = {
    value: 'This channel is for workspace-wide communication and announcements.',
    creator: allHumanIds[1] ?? member.id,
    last_set: general.created,
  };
  conversations.push(general);
  usedNames.add('random');
  conversations.push(
    makeConversation(
      'public_channel',
      'random',
      allHumanIds.filter(() => rand() < 0.8),
    ),
  );
  const random = conversations[1] as FakeConversation;
  if (!random.members.includes(member.id)) random.members.unshift(member.id);

  const publicCount = small ? 3 : 148;
  for (let i = 0; i < publicCount; i++) {
    // In the small workspace the member is in the first two and not in the third.
    const withMember = small ? i < 2 : rand() < 0.55;
    const pool = sample(rand, others, between(rand, small ? 2 : 3, small ? others.length : 18)).map((u) => u.id);
    const membersOf = withMember ? [member.id, ...pool] : pool;
    if (!small && rand() < 0.2) membersOf.push((pick(rand, bots) as FakeUser).id);
    const c = makeConversation('public_channel', channelName(), membersOf);
    if (!small && i < 4) c.is_archived = true;
    conversations.push(c);
  }
  const privateCount = small ? 2 : 40;
  for (let i = 0; i < privateCount; i++) {
    const withMember = small ? i === 0 : rand() < 0.6;
    const pool = sample(rand, others, between(rand, 2, small ? 3 : 8)).map((u) => u.id);
    conversations.push(makeConversation('private_channel', channelName(), withMember ? [member.id, ...pool] : pool));
  }
  // IMs: the member with Slackbot, the bots and other humans; some IMs between other users.
  const imPartners = small
    ? [...others.slice(0, 2).map((u) => u.id), 'USLACKBOT']
    : [...others.slice(0, 30).map((u) => u.id), ...bots.map((b) => b.id), 'USLACKBOT'];
  for (const partner of imPartners) {
    conversations.push(makeConversation('im', '', [member.id, partner], { user: partner }));
  }
  if (!small) {
    for (let i = 0; i < 20; i++) {
      const [a, b] = sample(rand, others, 2);
      conversations.push(makeConversation('im', '', [(a as FakeUser).id, (b as FakeUser).id], { user: (b as FakeUser).id }));
    }
  }
  const mpimCount = small ? 2 : 30;
  for (let i = 0; i < mpimCount; i++) {
    const withMember = small ? true : rand() < 0.85;
    const pool = sample(rand, others, between(rand, 2, small ? 3 : 6)).map((u) => u.id);
    const membersOf = withMember ? [member.id, ...pool] : pool;
    const name = `mpdm-${membersOf.map((id) => users.find((u) => u.id === id)?.name).join('--')}-1`;
    conversations.push(makeConversation('mpim', name, membersOf));
  }

  // Messages.
  const byId = new Map(users.map((u) => [u.id, u]));
  const textFor = (conversation: FakeConversation, author: string): string => {
    const mention = () => {
      const target = rand() < 0.35 ? member.id : pick(rand, conversation.members);
      return `<@${target === author ? member.id : target}>`;
    };
    const channelRef = () => {
      const c = pick(
        rand,
        conversations.filter((x) => x.kind === 'public_channel'),
      );
      return `<#${c.id}|${c.name}>`;
    };
    const link = () => {
      const [href, label] = pick(rand, LINKS);
      return rand() < 0.7 ? `<${href}|${label}>` : `<${href}>`;
    };
    const emoji = () => `:${pick(rand, EMOJI)}:`;
    const topic = pick(rand, TOPICS);
    const templates = [
      () => `Has anyone looked at ${topic}? ${emoji()}`,
      () => `${mention()} can you take a look at ${link()} when you get a chance?`,
      () => `Quick update on ${topic}: we're on track for Friday ${emoji()}`,
      () => `I left some notes in ${channelRef()} about ${topic}`,
      () => `${mention()} ${mention()} thoughts on ${topic}?`,
      () => `Thanks! ${emoji()}`,
      () => `FYI ${link()}`,
      () => `Moving the discussion about ${topic} to ${channelRef()}`,
      () => `Can we sync about ${topic} tomorrow? I have a few questions about the *scope* and the _timeline_.`,
      () => `Done ${emoji()} — merged ${link()}`,
      () => `\`npm test\` is failing on main again, looks related to ${topic}`,
      () => `<!here> reminder: ${topic} review at 3pm ${emoji()}`,
      () => `Sounds good to me`,
      () => `> ${topic} is blocked on legal\nAny news on that?`,
      () => `Here's the plan for ${topic}:\n• draft by Tuesday\n• review Wednesday\n• ship Thursday`,
    ];
    const text = pick(rand, templates)();
    return byId.get(author)?.is_bot ? `Deployment of ${topic} finished ${emoji()}` : text;
  };

  const horizon = 14 * 86400;
  const newestSec = nowSec - 300;
  for (const conversation of conversations) {
    const speakers = conversation.members.filter((id) => {
      const u = byId.get(id);
      return u !== undefined && !u.deleted;
    });
    if (speakers.length === 0) continue;
    let count: number;
    if (small) count = between(rand, 4, 8);
    else if (conversation.is_general) count = 60;
    else count = rand() < 0.1 ? 0 : between(rand, 1, 30);
    const used = new Set<number>();
    const uniqueMicros = (sec: number): number => {
      for (;;) {
        const micros = Math.min(sec, newestSec) * 1e6 + between(rand, 0, 999_999);
        if (!used.has(micros)) {
          used.add(micros);
          return micros;
        }
      }
    };
    const start = newestSec - Math.floor(rand() * horizon);
    const seconds = Array.from({ length: count }, () => between(rand, start, newestSec)).sort((a, b) => a - b);
    for (const [index, sec] of seconds.entries()) {
      const author = pick(rand, speakers);
      const ts = tsFromMicros(uniqueMicros(sec));
      const authorUser = byId.get(author) as FakeUser;
      let message: FakeMessage;
      if (index === 0 && (conversation.kind === 'public_channel' || conversation.kind === 'private_channel') && rand() < 0.3) {
        message = { type: 'message', subtype: 'channel_join', ts, user: author, text: `<@${author}> has joined the channel` };
      } else if (authorUser.is_bot) {
        message = {
          type: 'message',
          subtype: 'bot_message',
          ts,
          text: textFor(conversation, author),
          bot_id: authorUser.profile.bot_id as string,
          username: authorUser.real_name,
        };
      } else {
        message = { type: 'message', ts, user: author, text: textFor(conversation, author), team: team.id, client_msg_id: uuid(rand) };
        if (rand() < 0.08) message.edited = { user: author, ts: tsFromMicros(microsFromTs(ts) + between(rand, 10, 600) * 1e6) };
        if (rand() < 0.15) {
          const reactors = sample(rand, speakers, between(rand, 1, Math.min(3, speakers.length)));
          message.reactions = [{ name: pick(rand, EMOJI), users: reactors, count: reactors.length }];
        }
      }
      conversation.messages.push(message);
      // Threads.
      const threadChance = small ? 0.35 : 0.15;
      if (message.subtype === undefined && speakers.length > 1 && rand() < threadChance) {
        const replyCount = between(rand, 1, 6);
        const replies: FakeMessage[] = [];
        let replySec = sec;
        for (let r = 0; r < replyCount; r++) {
          replySec = Math.min(newestSec, replySec + between(rand, 20, 7200));
          const replier = pick(rand, speakers.filter((id) => !byId.get(id)?.is_bot).concat(author));
          replies.push({
            type: 'message',
            ts: tsFromMicros(uniqueMicros(replySec)),
            user: replier,
            text: textFor(conversation, replier),
            team: team.id,
            client_msg_id: uuid(rand),
            thread_ts: ts,
            parent_user_id: author,
          });
        }
        replies.sort((a, b) => compareTs(a.ts, b.ts));
        conversation.replies[ts] = replies;
        refreshThreadParent(conversation, ts);
      }
    }

    // Read marks: the member has read some conversations fully, some partly, some not at all.
    const newest = conversation.messages.at(-1)?.ts ?? NEVER_READ;
    for (const id of conversation.members) {
      if (id !== member.id) {
        conversation.lastRead[id] = newest;
        continue;
      }
      const roll = rand();
      const n = conversation.messages.length;
      if (n === 0 || roll < 0.45) conversation.lastRead[id] = newest;
      else if (roll < 0.85 && n > 1) conversation.lastRead[id] = (conversation.messages[between(rand, 0, n - 2)] as FakeMessage).ts;
      else conversation.lastRead[id] = NEVER_READ;
    }
  }

  const workspace: FakeWorkspace = {
    team,
    appId,
    users,
    conversations,
    memberId: member.id,
    bots: [],
    externalUsers: [],
    usergroups: [],
    emoji: {},
    extras: null,
  };
  for (const b of bots) {
    workspace.bots.push({
      id: b.profile.bot_id as string,
      deleted: false,
      name: b.real_name,
      updated: b.updated,
      app_id: b.profile.api_app_id as string,
      user_id: b.id,
      icons: botIcons(baseUrl, b.profile.bot_id as string),
    });
  }
  if (options.appPosts !== false) addRealSlack(workspace, { rand, newId, makeUser, makeConversation, baseUrl, newestSec, nowSec, others, member });
  return workspace;
}

/** Recomputes a thread parent's reply_count / reply_users / latest_reply from its replies. */
export function refreshThreadParent(conversation: FakeConversation, parentTs: string): void {
  const parent = conversation.messages.find((m) => m.ts === parentTs);
  if (!parent) return;
  const replies = conversation.replies[parentTs] ?? [];
  if (replies.length === 0) {
    delete conversation.replies[parentTs];
    for (const key of ['thread_ts', 'reply_count', 'reply_users_count', 'reply_users', 'latest_reply', 'is_locked', 'subscribed'] as const) delete parent[key];
    return;
  }
  const repliers: string[] = [];
  for (const r of replies) if (r.user && !repliers.includes(r.user)) repliers.push(r.user);
  parent.thread_ts = parentTs;
  parent.reply_count = replies.length;
  parent.reply_users_count = repliers.length;
  parent.reply_users = repliers.slice(0, 5);
  parent.latest_reply = (replies.at(-1) as FakeMessage).ts;
  parent.is_locked = false;
  parent.subscribed = false;
}

/** A bot's icons on the fake's own host (the avatar route answers bot ids too). */
export function botIcons(baseUrl: string, botId: string): FakeBot['icons'] {
  return { image_36: `${baseUrl}/avatars/${botId}_36.png`, image_48: `${baseUrl}/avatars/${botId}_48.png`, image_72: `${baseUrl}/avatars/${botId}_72.png` };
}

interface RealSlackTools {
  rand: () => number;
  newId: (prefix: string, length?: number) => string;
  makeUser: (first: string, last: string, extra?: Partial<FakeUser>, profileExtra?: Partial<FakeProfile>) => FakeUser;
  makeConversation: (kind: FakeConversationKind, name: string, members: string[], extra?: Partial<FakeConversation>) => FakeConversation;
  baseUrl: string;
  newestSec: number;
  nowSec: number;
  others: FakeUser[];
  member: FakeUser;
}

/** Which channel each app's posts go to (the rest: the member's DM with the app). */
const APP_HOME: Record<string, 'alerts' | 'deploys' | 'teamUpdates' | 'dm' | 'slackbot'> = {
  PagerDuty: 'alerts',
  Alertmanager: 'alerts',
  Grafana: 'alerts',
  Statuspage: 'alerts',
  Opsgenie: 'alerts',
  Sentry: 'alerts',
  Datadog: 'alerts',
  GitHub: 'deploys',
  Jenkins: 'deploys',
  CircleCI: 'deploys',
  Geekbot: 'teamUpdates',
  Polly: 'teamUpdates',
  'Workflow Builder': 'teamUpdates',
  RSS: 'teamUpdates',
  'Google Calendar': 'dm',
  Zoom: 'dm',
  'Jira Cloud': 'dm',
  Slackbot: 'slackbot',
};

/**
 * The content of a real workspace that the seeded chatter lacks, in Slack's shapes: app and webhook
 * posts (tests/fixtures/slackAppPosts.ts), the bots registry, Slack Connect (a shared channel, an
 * external person in a DM), a guest and a deleted user who posted, user groups, custom emoji,
 * system subtypes, a tombstoned thread parent, a broadcast reply, a huddle, a /me message.
 * Everything is added after the seeded content, so a seed's earlier content is unchanged.
 */
function addRealSlack(w: FakeWorkspace, tools: RealSlackTools): void {
  const { rand, newId, makeUser, makeConversation, baseUrl, newestSec, member } = tools;
  const { team, users, conversations } = w;
  const colleague = tools.others[0] as FakeUser;
  const second = (tools.others[1] ?? colleague) as FakeUser;
  const slackbotIndex = () => users.findIndex((u) => u.id === 'USLACKBOT');
  const addUser = (u: FakeUser) => users.splice(slackbotIndex(), 0, u);

  // Ids: every fixture placeholder gets an id of this team.
  const ids: Record<string, string> = { [FIX_TEAM]: team.id, [FIX_MEMBER]: member.id, [FIX_COLLEAGUE]: colleague.id };
  const appIdFor = new Map<string, string>();
  for (const b of APP_BOTS) {
    ids[b.bot_id] = newId('B');
    if (!appIdFor.has(b.app_id)) appIdFor.set(b.app_id, newId('A'));
    ids[b.app_id] = appIdFor.get(b.app_id) as string;
  }
  const usergroupIds = { oncall: newId('S'), sre: newId('S'), disabled: newId('S') };
  ids.SFIXONCALL = usergroupIds.oncall;
  ids.FFIXMARMLDN = newId('F');

  // App bot users (users.list, profile.bot_id) and the bots registry (bots.info).
  const botUserIds: Record<string, string> = {};
  const botIds: Record<string, string> = {};
  const webhookBotIds: string[] = [];
  for (const b of APP_BOTS) {
    const botId = ids[b.bot_id] as string;
    botIds[b.key] = botId;
    let userId: string | undefined;
    if (b.user_id && b.handle) {
      const u = makeUser(
        b.name,
        '',
        { is_bot: true, name: b.handle },
        {
          bot_id: botId,
          api_app_id: ids[b.app_id],
          always_active: true,
          display_name: '',
          display_name_normalized: '',
          first_name: b.name,
          last_name: '',
          title: '',
          status_text: '',
          status_emoji: '',
        },
      );
      delete u.profile.email;
      u.real_name = b.name;
      u.profile.real_name = b.name;
      u.profile.real_name_normalized = b.name;
      addUser(u);
      userId = u.id;
      ids[b.user_id] = u.id;
      botUserIds[b.key] = u.id;
    } else {
      webhookBotIds.push(botId);
    }
    w.bots.push({
      id: botId,
      deleted: false,
      name: b.name,
      updated: tools.nowSec - 86400 * 40,
      app_id: ids[b.app_id] as string,
      ...(userId ? { user_id: userId } : {}),
      icons: botIcons(baseUrl, botId),
    });
  }
  // A retired integration: bots.info says deleted.
  const retiredBot = newId('B');
  w.bots.push({
    id: retiredBot,
    deleted: true,
    name: 'Travis CI',
    updated: tools.nowSec - 86400 * 400,
    app_id: newId('A'),
    icons: botIcons(baseUrl, retiredBot),
  });

  // People: a guest and a deactivated account who posted, both in users.list; an external person who is not.
  const guest = makeUser('Wren', 'Castillo', { is_restricted: true });
  addUser(guest);
  const gone = makeUser('Olga', 'Petrov');
  gone.deleted = true;
  delete gone.profile.email;
  addUser(gone);
  const externalTeam = { id: newId('T'), name: 'Initech Partners', domain: 'initech-partners' };
  const external = makeUser('Noor', 'Haddad', { team_id: externalTeam.id }, { team: externalTeam.id, title: 'Solutions Architect, Initech' });
  external.profile.email = 'noor.haddad@initech-partners.example.com';
  w.externalUsers.push(external);
  const userProfileShort = (u: FakeUser) => ({
    avatar_hash: u.profile.avatar_hash,
    image_72: u.profile.image_72,
    first_name: u.profile.first_name,
    real_name: u.real_name,
    display_name: u.profile.display_name,
    team: u.team_id,
    name: u.name,
    is_restricted: u.is_restricted,
    is_ultra_restricted: u.is_ultra_restricted,
  });

  // User groups (objs_subteam).
  const subteam = (id: string, handle: string, name: string, description: string, members: string[], deleted = false): FakeUsergroup => ({
    id,
    team_id: team.id,
    is_usergroup: true,
    is_subteam: true,
    name,
    description,
    handle,
    is_external: false,
    date_create: tools.nowSec - 86400 * 200,
    date_update: tools.nowSec - 86400 * 20,
    date_delete: deleted ? tools.nowSec - 86400 * 10 : 0,
    auto_type: null,
    auto_provision: false,
    enterprise_subteam_id: '',
    created_by: colleague.id,
    updated_by: colleague.id,
    deleted_by: deleted ? colleague.id : null,
    prefs: { channels: [], groups: [] },
    users: members,
    user_count: members.length,
    channel_count: 0,
  });
  w.usergroups.push(
    subteam(usergroupIds.oncall, 'oncall-payments', 'Payments on-call', 'Whoever carries the payments pager this week.', [member.id, colleague.id]),
    subteam(usergroupIds.sre, 'sre', 'SRE', 'Site reliability engineering.', [colleague.id, second.id]),
    subteam(usergroupIds.disabled, 'design-crit', 'Design critique', 'Retired.', [second.id], true),
  );

  // Custom emoji (emoji.list): images on the fake's host, and an alias.
  for (const name of ['partyparrot', 'shipit', 'lgtm', 'jenkins', 'this-is-fine']) w.emoji[name] = `${baseUrl}/emoji/${name}.png`;
  w.emoji.squirrel_ship = 'alias:shipit';

  // Conversations.
  const humansAround = [colleague.id, second.id];
  const channel = (name: string, membersOf: string[], extra: Partial<FakeConversation> = {}) => {
    const c = makeConversation('public_channel', name, [...new Set(membersOf)], extra);
    conversations.push(c);
    return c;
  };
  const alerts = channel('alerts', [member.id, ...humansAround, botUserIds.pagerduty!, botUserIds.sentry!, botUserIds.datadog!]);
  const deploys = channel('deploys', [member.id, ...humansAround, guest.id, gone.id, botUserIds.github!]);
  const teamUpdates = channel('team-updates', [member.id, ...humansAround, botUserIds.geekbot!, botUserIds.polly!, botUserIds.workflow!]);
  const notJoined = channel('incident-review', humansAround);
  const archived = channel('legacy-alerts', [member.id, colleague.id], { is_archived: true });
  const shared = channel('ext-initech-launch', [member.id, colleague.id, external.id], { shared: { teamIds: [team.id, externalTeam.id], host: team.id } });
  const externalIm = makeConversation('im', '', [member.id, external.id], { user: external.id });
  conversations.push(externalIm);
  const appIms: Record<string, string> = {};
  const imWith: Record<string, FakeConversation> = {};
  for (const key of ['gcal', 'zoom', 'jira']) {
    const im = makeConversation('im', '', [member.id, botUserIds[key] as string], { user: botUserIds[key] as string });
    conversations.push(im);
    appIms[key] = im.id;
    imWith[key] = im;
  }
  const slackbotIm = conversations.find((c) => c.kind === 'im' && c.members.includes(member.id) && c.members.includes('USLACKBOT')) as FakeConversation;

  // Time: the new content spans the last ~20 hours before the newest seeded second, in order.
  let clock = (newestSec - 20 * 3600) * 1e6 + 123;
  const tick = () => {
    clock += (60 + Math.floor(rand() * 600)) * 1e6 + Math.floor(rand() * 999);
    return tsFromMicros(Math.min(clock, newestSec * 1e6 + 999_000));
  };
  const add = (c: FakeConversation, m: FakeMessage): FakeMessage => {
    c.messages.push(m);
    return m;
  };
  const human = (u: FakeUser, text: string, extra: Partial<FakeMessage> = {}): FakeMessage => ({
    type: 'message',
    ts: tick(),
    user: u.id,
    text,
    team: u.team_id,
    client_msg_id: uuid(rand),
    ...extra,
  });
  const sys = (u: FakeUser, subtype: string, text: string, extra: Partial<FakeMessage> = {}): FakeMessage => ({
    type: 'message',
    subtype,
    ts: tick(),
    user: u.id,
    text,
    ...extra,
  });
  const link = (botKey: string, name: string) => `<https://${team.domain}.slack.com/services/${botIds[botKey]}|${name}>`;
  const fix = <T>(m: T, ts: string): T => instantiateFixture(m, ids, baseUrl, ts);

  // --- system messages (all read by the member: Slack's client never counts them).
  add(
    alerts,
    sys(colleague, 'bot_add', `added an integration to this channel: ${link('pagerduty', 'PagerDuty')}`, {
      bot_id: botIds.pagerduty,
      bot_link: link('pagerduty', 'PagerDuty'),
    }),
  );
  const alertsTopic = 'Production alerts. Ack within 5 minutes.';
  add(alerts, sys(colleague, 'channel_topic', `<@${colleague.id}> set the channel topic: ${alertsTopic}`, { topic: alertsTopic }));
  const alertsPurpose = 'Where monitoring tools page the on-call engineer.';
  add(alerts, sys(colleague, 'channel_purpose', `<@${colleague.id}> set the channel purpose: ${alertsPurpose}`, { purpose: alertsPurpose }));
  const runbook = add(alerts, human(colleague, 'Runbook for every alert here: <https://docs.example.com/runbooks/alerts|alert runbooks>'));
  add(
    alerts,
    sys(colleague, 'pinned_item', `<@${colleague.id}> pinned a message to this channel.`, { item_type: 'C', item: { type: 'message', ts: runbook.ts } }),
  );
  alerts.topic = { value: alertsTopic, creator: colleague.id, last_set: Math.floor(microsFromTs(alerts.messages[1]!.ts) / 1e6) };
  alerts.purpose = { value: alertsPurpose, creator: colleague.id, last_set: Math.floor(microsFromTs(alerts.messages[2]!.ts) / 1e6) };

  add(
    deploys,
    sys(colleague, 'channel_name', `<@${colleague.id}> has renamed the channel from "deploy" to "deploys"`, { old_name: 'deploy', name: 'deploys' }),
  );
  add(deploys, sys(colleague, 'channel_unarchive', `<@${colleague.id}> un-archived the channel`));
  add(
    deploys,
    sys(colleague, 'bot_remove', `removed an integration from this channel: ${link('jenkins', 'Jenkins CI')}`, {
      bot_id: botIds.jenkins,
      bot_link: link('jenkins', 'Jenkins CI'),
    }),
  );
  add(
    deploys,
    sys(colleague, 'bot_add', `added an integration to this channel: ${link('circleci', 'CircleCI')}`, {
      bot_id: botIds.circleci,
      bot_link: link('circleci', 'CircleCI'),
    }),
  );
  const deletedUserPost = add(
    deploys,
    human(gone, 'Handing over the deploy scripts before I leave: they live in <https://github.com/acme/rocket/tree/main/deploy|deploy/>.'),
  );
  const huddleTs = tick();
  add(deploys, {
    type: 'message',
    subtype: 'huddle_thread',
    ts: huddleTs,
    user: 'USLACKBOT',
    text: '',
    team: team.id,
    no_notifications: true,
    permalink: `https://${team.domain}.slack.com/call/${newId('R')}`,
    room: {
      id: newId('R'),
      name: '',
      media_server: '',
      created_by: colleague.id,
      date_start: Math.floor(microsFromTs(huddleTs) / 1e6),
      date_end: Math.floor(microsFromTs(huddleTs) / 1e6) + 1260,
      participants: [],
      participant_history: [colleague.id, member.id, second.id],
      participants_camera_on: [],
      participants_camera_off: [],
      participants_screenshare_on: [],
      participants_screenshare_off: [],
      canvas_thread_ts: huddleTs,
      thread_root_ts: huddleTs,
      channels: [deploys.id],
      is_dm_call: false,
      was_rejected: false,
      was_missed: false,
      was_accepted: false,
      has_ended: true,
      is_prewarmed: false,
      is_scheduled: false,
      attached_file_ids: [],
      media_backend_type: 'free_willy',
      display_id: '',
      app_id: 'A00',
      call_family: 'huddle',
      pending_invitees: {},
      last_invite_status_by_user: {},
    },
    blocks: [{ type: 'rich_text', block_id: 'hUd1', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'A huddle started' }] }] }],
  });
  // A thread whose parent was deleted: Slack keeps a tombstone while the replies live.
  const tombstoneTs = tick();
  add(deploys, { type: 'message', subtype: 'tombstone', ts: tombstoneTs, user: 'USLACKBOT', text: 'This message was deleted.', hidden: true });
  deploys.replies[tombstoneTs] = [
    {
      type: 'message',
      ts: tick(),
      user: second.id,
      text: 'Was this about the canary rollback?',
      team: team.id,
      client_msg_id: uuid(rand),
      thread_ts: tombstoneTs,
      parent_user_id: colleague.id,
    },
    {
      type: 'message',
      ts: tick(),
      user: member.id,
      text: 'Yes, rolled back at 14:05, all green since.',
      team: team.id,
      client_msg_id: uuid(rand),
      thread_ts: tombstoneTs,
      parent_user_id: colleague.id,
    },
  ];
  refreshThreadParent(deploys, tombstoneTs);
  const me = add(deploys, human(colleague, 'is rolling back web to 2024.11.3', { subtype: 'me_message' }));
  delete me.client_msg_id;
  const editedPost = add(deploys, human(second, 'Deploy window is 14:00–15:00 today (edited: was 13:00)'));
  editedPost.edited = { user: second.id, ts: tsFromMicros(microsFromTs(editedPost.ts) + 95e6) };
  const guestPost = add(deploys, human(guest, 'Contractor here: can I get read access to the deploy dashboard?'));

  // --- app posts: alerts, deploys, team updates, app DMs, the Slackbot reminder. The member has read
  // the first 40 % of each channel's app posts.
  const appPosts: FakeExtras['appPosts'] = [];
  const placed: Record<string, Array<{ c: FakeConversation; m: FakeMessage; id: string }>> = {};
  const home = (app: string): FakeConversation => {
    const where = APP_HOME[app] ?? 'teamUpdates';
    if (where === 'alerts') return alerts;
    if (where === 'deploys') return deploys;
    if (where === 'teamUpdates') return teamUpdates;
    if (where === 'slackbot') return slackbotIm;
    const key = app === 'Google Calendar' ? 'gcal' : app === 'Zoom' ? 'zoom' : 'jira';
    return imWith[key] as FakeConversation;
  };
  for (const post of APP_POSTS) {
    const c = home(post.app);
    const m = fix(post.message as FakeMessage, tick());
    (placed[c.id] ??= []).push({ c, m, id: post.id });
  }
  const textOnlyInside: FakeExtras['textOnlyInside'] = [];
  for (const t of TEXT_ONLY_INSIDE) {
    const c = t.where === 'file_title' ? deploys : alerts;
    const m = fix(t.message as FakeMessage, tick());
    (placed[c.id] ??= []).push({ c, m, id: t.id });
    textOnlyInside.push({ id: t.id, word: t.word, where: t.where, channel: c.id, ts: m.ts });
  }
  // Human posts among the app posts in #deploys (written after them in time).
  const reactionsPost = [...(placed[deploys.id] ?? [])].find((p) => p.id === 'jenkins_deploy_success')?.m;
  if (reactionsPost) {
    reactionsPost.reactions = [
      { name: '+1::skin-tone-3', users: [member.id, colleague.id], count: 2 },
      { name: 'shipit', users: [second.id], count: 1 },
      { name: 'partyparrot', users: [colleague.id, second.id, member.id], count: 3 },
      { name: 'tada', users: [second.id], count: 1 },
    ];
  }
  const readUpTo: Record<string, string> = {};
  for (const list of Object.values(placed)) {
    const c = list[0]!.c;
    const cut = Math.floor(list.length * 0.4);
    list.forEach((p, i) => {
      if (c === slackbotIm) {
        // Insert in order (the IM already has seeded messages).
        c.messages.push(p.m);
        c.messages.sort((a, b) => compareTs(a.ts, b.ts));
      } else {
        c.messages.push(p.m);
      }
      if (i < cut) readUpTo[c.id] = p.m.ts;
      const entry = APP_POSTS.find((x) => x.id === p.id);
      if (entry) appPosts.push({ id: p.id, channel: c.id, ts: p.m.ts, unread: i >= cut });
    });
  }

  // --- mentions: user groups (labelled and bare), a channel the member is not in (<#C…> and <#C…|>), a date, custom emoji.
  const dateEpoch = Math.floor(microsFromTs(deletedUserPost.ts) / 1e6) + 86400;
  const dateFallback = new Date(dateEpoch * 1000).toUTCString();
  const subteamLabelled = add(
    deploys,
    human(
      colleague,
      `<!subteam^${usergroupIds.oncall}|@oncall-payments> deploy freeze from <!date^${dateEpoch}^{date_short} at {time}|${dateFallback}> :squirrel_ship: :partyparrot:`,
      {
        blocks: [
          {
            type: 'rich_text',
            block_id: 'fRz1',
            elements: [
              {
                type: 'rich_text_section',
                elements: [
                  { type: 'usergroup', usergroup_id: usergroupIds.oncall },
                  { type: 'text', text: ' deploy freeze from ' },
                  { type: 'date', timestamp: dateEpoch, format: '{date_short} at {time}', fallback: dateFallback },
                  { type: 'text', text: ' ' },
                  { type: 'emoji', name: 'squirrel_ship' },
                  { type: 'text', text: ' ' },
                  { type: 'emoji', name: 'partyparrot' },
                ],
              },
            ],
          },
        ],
      },
    ),
  );
  const subteamBare = add(deploys, human(second, `<!subteam^${usergroupIds.sre}> can someone look at the flaky canary? :this-is-fine:`));
  const channelMentions = add(deploys, human(colleague, `Postmortem notes go to <#${notJoined.id}> (not <#${notJoined.id}|>): join it if you were paged.`));
  // A reply broadcast to the channel (thread_broadcast, with its root), in a thread on the CI failure.
  const ciFailure = (placed[deploys.id] ?? []).find((p) => p.id === 'github_ci_failing_main')?.m as FakeMessage;
  const broadcastTs = tick();
  const broadcastReply: FakeMessage = {
    type: 'message',
    subtype: 'thread_broadcast',
    ts: broadcastTs,
    user: colleague.id,
    text: 'Fixed by reverting the lockfile change, main is green again.',
    team: team.id,
    client_msg_id: uuid(rand),
    thread_ts: ciFailure.ts,
    parent_user_id: ciFailure.user as string,
  };
  deploys.replies[ciFailure.ts] = [
    {
      type: 'message',
      ts: tsFromMicros(microsFromTs(broadcastTs) - 30e6),
      user: member.id,
      text: 'Looking',
      team: team.id,
      client_msg_id: uuid(rand),
      thread_ts: ciFailure.ts,
      parent_user_id: ciFailure.user as string,
    },
    broadcastReply,
  ];
  refreshThreadParent(deploys, ciFailure.ts);
  broadcastReply.root = { ...ciFailure };
  add(deploys, { ...broadcastReply });

  // --- Slack Connect: the shared channel and the DM with the external person.
  const fromExternal = (text: string): FakeMessage => ({
    type: 'message',
    ts: tick(),
    user: external.id,
    text,
    team: externalTeam.id,
    user_team: externalTeam.id,
    source_team: externalTeam.id,
    user_profile: userProfileShort(external),
    client_msg_id: uuid(rand),
  });
  add(shared, human(colleague, `Welcome <@${external.id}>! This is our shared channel for the launch.`));
  const externalPost = add(shared, fromExternal(`Thanks! <@${member.id}> could you confirm the webhook IP ranges before Friday?`));
  add(shared, human(member, 'Will do.'));
  const externalImPost = add(externalIm, fromExternal(`Hi <@${member.id}>, quick question about your rate limits: is 100 req/s per token right?`));

  // The channel the member is not in, and the archived channel.
  add(notJoined, human(colleague, 'Postmortem for #4821 drafted, comments welcome.'));
  add(notJoined, human(second, 'Added the timeline.'));
  add(archived, human(colleague, 'Moving everything to #alerts.'));
  add(archived, sys(colleague, 'channel_archive', `<@${colleague.id}> archived the channel`, { members: [...archived.members] }));

  // Read marks: others have read everything; the member read the system messages and part of the posts.
  for (const c of [alerts, deploys, teamUpdates, notJoined, archived, shared, externalIm, ...Object.values(imWith)]) {
    c.messages.sort((a, b) => compareTs(a.ts, b.ts));
    const newest = c.messages.at(-1)?.ts ?? NEVER_READ;
    for (const id of c.members) c.lastRead[id] = newest;
  }
  const systemEnd = (c: FakeConversation) => {
    let last = NEVER_READ;
    for (const m of c.messages)
      if (m.subtype && m.subtype !== 'bot_message' && m.subtype !== 'file_share' && m.subtype !== 'thread_broadcast' && m.subtype !== 'me_message') last = m.ts;
    return last;
  };
  for (const c of [alerts, deploys, teamUpdates, ...Object.values(imWith)]) {
    const mark = readUpTo[c.id] ?? NEVER_READ;
    const sysMark = systemEnd(c);
    c.lastRead[member.id] = compareTs(mark, sysMark) > 0 ? mark : sysMark;
  }
  shared.lastRead[member.id] = externalPost.ts;
  externalIm.lastRead[member.id] = NEVER_READ;
  // Unread as the member's marks now say (the Slackbot IM keeps its seeded mark).
  for (const p of appPosts) {
    const c = conversations.find((x) => x.id === p.channel) as FakeConversation;
    p.unread = compareTs(p.ts, c.lastRead[member.id] ?? NEVER_READ) > 0;
  }

  w.extras = {
    alerts: alerts.id,
    deploys: deploys.id,
    teamUpdates: teamUpdates.id,
    notJoined: notJoined.id,
    archived: archived.id,
    shared: shared.id,
    externalIm: externalIm.id,
    appIms,
    slackbotIm: slackbotIm.id,
    externalTeam,
    externalUserId: external.id,
    guestId: guest.id,
    deletedUserId: gone.id,
    colleagueId: colleague.id,
    botIds,
    botUserIds,
    webhookBotIds,
    usergroups: usergroupIds,
    dateEpoch,
    appPosts,
    textOnlyInside,
    ts: {
      tombstone: tombstoneTs,
      broadcast: broadcastTs,
      huddle: huddleTs,
      me: me.ts,
      edited: editedPost.ts,
      reactions: reactionsPost?.ts ?? '',
      subteamLabelled: subteamLabelled.ts,
      subteamBare: subteamBare.ts,
      channelMentions: channelMentions.ts,
      deletedUserPost: deletedUserPost.ts,
      guestPost: guestPost.ts,
      externalPost: externalPost.ts,
      externalImPost: externalImPost.ts,
    },
  };
}
