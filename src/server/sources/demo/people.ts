/**
 * The people of a demo workspace: the signed-in member (user #0, Alex Morgan), the bots, then
 * people with varied names, titles and teams, each with a generated initials avatar.
 */
import type { User } from '../../../model/types';
import { avatarDataUrl } from './avatar';
import { slackId } from './ids';
import { chance, pick, weighted, type Rng } from './random';
import { BOTS, FIRST_NAMES, LAST_NAMES, TEAMS, TEAM_WEIGHTS, TITLES, type Team } from './vocab';

/** A user of the demo workspace (SPEC §3 User); `avatar` is an SVG data: URL. */
export type DemoUser = User;

/** The member's identity in every demo workspace. */
export const DEMO_MEMBER_PROFILE = {
  first: 'Alex',
  last: 'Morgan',
  title: 'Engineering Manager',
  team: 'Engineering' as Team,
};

const FOLD: Readonly<Record<string, string>> = { ø: 'o', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', ı: 'i' };

/** An ASCII handle part: diacritics dropped, apostrophes and spaces removed ("O'Brien" → "obrien"). */
export function handlePart(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øæßłđı]/g, (ch) => FOLD[ch] ?? '')
    .replace(/[^a-z0-9]/g, '');
}

/** The e-mail domain of a workspace: its name as a slug under example.com. */
export function demoDomain(workspaceName: string): string {
  const base = handlePart(workspaceName.replace(/\s+/g, '')) || 'demo';
  return `${base}.example.com`;
}

export interface People {
  users: DemoUser[];
  /** Ids in user order (index 0 is the member, then the bots). */
  ids: string[];
  /** Indices of the people who are neither the member nor a bot. */
  humans: number[];
  /** Indices of humans by team. */
  byTeam: Map<Team, number[]>;
  /** Bot user index by bot name. */
  botIndex: Map<string, number>;
}

function makeUser(id: string, handle: string, first: string, last: string, display: string, domain: string, extra: Partial<User>): DemoUser {
  const real = last ? `${first} ${last}` : first;
  const user: DemoUser = { id, name: handle, real_name: real, display_name: display, ...extra };
  if (!extra.is_bot) user.email = `${handle}@${domain}`;
  user.avatar = avatarDataUrl(id, real, extra.is_bot === true);
  return user;
}

/** Builds `count` users (member + bots + people) deterministically from `rng`. */
export function buildPeople(rng: Rng, count: number, memberUserId: string, idKey: number, domain: string): People {
  const users: DemoUser[] = [];
  const ids: string[] = [];
  const humans: number[] = [];
  const byTeam = new Map<Team, number[]>(TEAMS.map((t) => [t, []]));
  const botIndex = new Map<string, number>();
  const handles = new Set<string>();

  const nextId = (index: number): string => {
    const id = slackId('U', index, idKey);
    return id === memberUserId ? slackId('U', index + 0x40000000, idKey) : id;
  };

  const m = DEMO_MEMBER_PROFILE;
  const memberHandle = `${handlePart(m.first)}.${handlePart(m.last)}`;
  handles.add(memberHandle);
  users.push(makeUser(memberUserId, memberHandle, m.first, m.last, m.first, domain, { title: m.title, team: m.team }));
  ids.push(memberUserId);

  for (const bot of BOTS) {
    if (users.length >= count) break;
    const id = nextId(users.length);
    botIndex.set(bot.name, users.length);
    handles.add(bot.name.toLowerCase());
    users.push(makeUser(id, bot.name.toLowerCase(), bot.display, '', bot.display, domain, { title: bot.title, is_bot: true }));
    ids.push(id);
  }

  while (users.length < count) {
    const index = users.length;
    const first = pick(rng, FIRST_NAMES);
    const last = pick(rng, LAST_NAMES);
    let handle = `${handlePart(first)}.${handlePart(last)}`;
    for (let n = 2; handles.has(handle); n++) handle = `${handlePart(first)}.${handlePart(last)}${n}`;
    handles.add(handle);
    const r = rng();
    const display =
      r < 0.6 ? first : r < 0.8 ? `${first} ${[...last][0]}.` : r < 0.9 ? `${handlePart(first)}${handlePart(last).slice(0, 1)}` : `${first} ${last}`;
    const team = weighted(rng, TEAM_WEIGHTS);
    const titles = TITLES[team];
    // Leads are rarer than the rest: the later titles in a list are drawn less often.
    const title = chance(rng, 0.7) ? titles[Math.floor(rng() * Math.min(3, titles.length))]! : pick(rng, titles);
    const id = nextId(index);
    users.push(makeUser(id, handle, first, last, display, domain, { title, team }));
    ids.push(id);
    humans.push(index);
    byTeam.get(team)!.push(index);
  }
  return { users, ids, humans, byTeam, botIndex };
}
