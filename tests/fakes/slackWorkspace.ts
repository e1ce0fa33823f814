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
}

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
  'Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia', 'Edsger', 'Hedy',
  'Tim', 'Katherine', 'Guido', 'Anita', 'Bjarne', 'Sophie', 'Yukihiro', 'Karen', 'Donald', 'Jean', 'Niklaus',
  'Shafi', 'Leslie', 'Mary', 'John', 'Evelyn', 'Rob', 'Lynn', 'Ward', 'Carol', 'Brian', 'Ida', 'Vint', 'Joan',
  'Larry', 'Elena', 'Tomás', 'Zoë', 'Mateo', 'Priya',
];
const LAST = [
  'Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman',
  'Dijkstra', 'Lamarr', 'Berners-Lee', 'Johnson', 'van Rossum', 'Borg', 'Stroustrup', 'Wilson', 'Matsumoto',
  'Spärck Jones', 'Knuth', 'Sammet', 'Wirth', 'Goldwasser', 'Lamport', 'Keller', 'McCarthy', 'Boyd', 'Pike',
  'Conway', 'Cunningham', 'Shaw', 'Kernighan', 'Rhodes', 'Cerf', 'Clarke', 'Page', 'Nuñez', 'García', 'Okafor',
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
  'eng', 'design', 'product', 'support', 'sales', 'marketing', 'ops', 'infra', 'data', 'mobile', 'web', 'api', 'growth',
  'security', 'billing', 'search', 'onboarding', 'releases', 'incidents', 'hiring', 'finance', 'legal', 'docs', 'qa',
  'platform', 'payments', 'analytics', 'ml', 'android', 'ios', 'perf', 'oncall', 'feedback', 'events', 'social',
];
const CHANNEL_SUFFIX = ['', '-team', '-alerts', '-chat', '-standup', '-help', '-announce', '-review', '-planning', '-emea', '-us'];
const EMOJI = ['tada', 'eyes', 'rocket', 'white_check_mark', 'thumbsup', 'fire', 'pray', 'thinking_face', 'heart', '100', 'wave', 'coffee'];
const TOPICS = ['deploys', 'the Q3 roadmap', 'the login bug', 'onboarding docs', 'the billing migration', 'search latency', 'the offsite', 'release 2.4', 'the design review', 'customer feedback', 'the on-call rotation', 'flaky tests'];
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
    const handle = `${first}.${last}`.toLowerCase().normalize('NFD').replace(/[^a-z.]/g, '');
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
  const botNames: Array<[string, string]> = small ? [['deploybot', 'Deploy Bot']] : [['deploybot', 'Deploy Bot'], ['pagerbot', 'Pager Bot']];
  const bots: FakeUser[] = [];
  for (const [handle, label] of botNames) {
    const botId = newId('B');
    const bot = makeUser(label, '', { is_bot: true, name: handle }, { bot_id: botId, api_app_id: newId('A'), always_active: true, display_name: '', display_name_normalized: '', first_name: label, last_name: '' });
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
  slackbot.profile = { ...slackbot.profile, real_name: 'Slackbot', real_name_normalized: 'Slackbot', display_name: 'Slackbot', display_name_normalized: 'Slackbot', first_name: 'slackbot', last_name: '', title: '', status_text: '', status_emoji: '', ...profileImages(baseUrl, 'USLACKBOT') };
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
  general.purpose = { value: 'This channel is for workspace-wide communication and announcements.', creator: allHumanIds[1] ?? member.id, last_set: general.created };
  conversations.push(general);
  usedNames.add('random');
  conversations.push(makeConversation('public_channel', 'random', allHumanIds.filter(() => rand() < 0.8)));
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
  const imPartners = small ? [...others.slice(0, 2).map((u) => u.id), 'USLACKBOT'] : [...others.slice(0, 30).map((u) => u.id), ...bots.map((b) => b.id), 'USLACKBOT'];
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
      const c = pick(rand, conversations.filter((x) => x.kind === 'public_channel'));
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
        message = { type: 'message', subtype: 'bot_message', ts, text: textFor(conversation, author), bot_id: authorUser.profile.bot_id as string, username: authorUser.real_name };
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

  return { team, appId, users, conversations, memberId: member.id };
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
