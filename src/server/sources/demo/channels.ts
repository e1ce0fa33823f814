/**
 * Channel blueprints for the demo workspace: a curated set every workspace starts with
 * (#announcements, #eng-backend, #incident-2291…), then generated ones that combine team
 * prefixes, areas, projects, customers and numbers, kept unique by name.
 */
import type { AiCategory } from '../../../model/types';
import { chance, intBetween, pick, weighted, type Rng } from './random';
import {
  AREAS,
  CHANNEL_SUFFIXES,
  CUSTOMERS,
  HOBBIES,
  OFFICES,
  PROJECT_CODENAMES,
  REGIONS,
  REPOS,
  SERVICES,
  TEAM_CHANNEL_PREFIX,
  TEAM_WEIGHTS,
  TICKET_PREFIXES,
  type Team,
} from './vocab';

export type ChannelKind = 'announce' | 'social' | 'team' | 'project' | 'customer' | 'incident' | 'bot';

export interface ChannelBlueprint {
  name: string;
  kind: ChannelKind;
  topic: string;
  /** The team whose people mostly make up the channel. */
  team?: Team;
  /** A bot that posts here (by its user name). */
  bot?: string;
  is_private: boolean;
  /** Everybody (people, not bots) is a member. */
  everyone?: boolean;
  /** A fixed ground truth; otherwise drawn by kind. */
  truth?: AiCategory;
}

/** The channels every demo workspace has, first and in this order. */
export const CURATED_CHANNELS: readonly ChannelBlueprint[] = [
  {
    name: 'announcements',
    kind: 'announce',
    topic: 'Company-wide announcements. Leads post, everyone reads.',
    is_private: false,
    everyone: true,
    truth: 'fyi',
  },
  { name: 'general', kind: 'announce', topic: 'Company-wide chatter and questions', is_private: false, everyone: true, truth: 'fyi' },
  { name: 'random', kind: 'social', topic: 'Non-work banter and water-cooler conversation :coffee:', is_private: false, everyone: true, truth: 'fyi' },
  {
    name: 'incident-2291',
    kind: 'incident',
    topic: 'SEV1: checkout 502s in eu-west-1. IC: see pinned',
    team: 'Engineering',
    bot: 'PagerBot',
    is_private: false,
    truth: 'urgent',
  },
  { name: 'eng-backend', kind: 'team', topic: 'Backend services, APIs and databases', team: 'Engineering', is_private: false, truth: 'can_wait' },
  { name: 'eng-frontend', kind: 'team', topic: 'Web app, design system integration, performance', team: 'Engineering', is_private: false },
  {
    name: 'design-crit',
    kind: 'team',
    topic: 'Share work in progress, get feedback. Be kind, be specific.',
    team: 'Design',
    is_private: false,
    truth: 'can_wait',
  },
  { name: 'sales-emea', kind: 'team', topic: 'EMEA pipeline, deals and renewals', team: 'Sales', is_private: false },
  { name: 'deploys', kind: 'bot', topic: 'Automated deploy notifications', team: 'Engineering', bot: 'deploybot', is_private: false, truth: 'fyi' },
  { name: 'alerts-prod', kind: 'incident', topic: 'Production alerts from PagerBot', team: 'Engineering', bot: 'PagerBot', is_private: false, truth: 'urgent' },
  { name: 'support-escalations', kind: 'customer', topic: 'Tier-2 escalations. Tag the owning team.', team: 'Support', is_private: false, truth: 'urgent' },
  { name: 'security', kind: 'team', topic: 'Security team: vulnerabilities, access reviews, incidents', team: 'Security', is_private: true },
  { name: 'leadership', kind: 'team', topic: 'Leadership team', team: 'Operations', is_private: true, truth: 'can_wait' },
  {
    name: 'eng-managers',
    kind: 'team',
    topic: 'Engineering managers: hiring, planning, people topics',
    team: 'Engineering',
    is_private: true,
    truth: 'can_wait',
  },
  { name: 'hiring-eng', kind: 'team', topic: 'Engineering hiring pipeline and debriefs', team: 'People', is_private: true },
  { name: 'marketing-launches', kind: 'project', topic: 'Launch calendar and go-to-market', team: 'Marketing', is_private: false },
  { name: 'finance-approvals', kind: 'team', topic: 'Spend approvals over $5k', team: 'Finance', is_private: true, truth: 'urgent' },
  { name: 'data-platform', kind: 'team', topic: 'Warehouse, pipelines and dashboards', team: 'Data', is_private: false },
  { name: 'people-team', kind: 'announce', topic: 'Benefits, policies and office news', team: 'People', is_private: false, truth: 'fyi' },
  { name: 'proj-atlas', kind: 'project', topic: 'Project Atlas: the new billing platform. Launch in Q3.', team: 'Engineering', is_private: false },
  { name: 'cust-globex', kind: 'customer', topic: 'Globex account: renewal in 60 days', team: 'Sales', is_private: true },
  { name: 'oncall', kind: 'incident', topic: 'On-call handoffs and pages', team: 'Engineering', bot: 'PagerBot', is_private: false },
  { name: 'pets', kind: 'social', topic: 'Pictures of pets. That is all.', is_private: false, truth: 'fyi' },
  { name: 'music', kind: 'social', topic: 'What are you listening to?', is_private: false, truth: 'fyi' },
  { name: 'running-club', kind: 'social', topic: 'Weekly runs, race sign-ups', is_private: false, truth: 'fyi' },
  { name: 'jira-updates', kind: 'bot', topic: 'Issue updates from Jira', bot: 'Jira', team: 'Engineering', is_private: false, truth: 'fyi' },
  { name: 'github-prs', kind: 'bot', topic: 'Pull requests and CI from GitHub', bot: 'GitHub', team: 'Engineering', is_private: false },
  { name: 'product-feedback', kind: 'project', topic: 'Customer feedback, feature requests', team: 'Product', is_private: false, truth: 'can_wait' },
  { name: 'design-system', kind: 'team', topic: 'Components, tokens, accessibility', team: 'Design', is_private: false, truth: 'fyi' },
  { name: 'sales-deals', kind: 'customer', topic: 'Deals that need help to close', team: 'Sales', is_private: false },
];

/** How often each kind is generated beyond the curated set. */
const KIND_WEIGHTS: Readonly<Record<ChannelKind, number>> = {
  team: 35,
  project: 20,
  customer: 10,
  incident: 7,
  social: 13,
  announce: 5,
  bot: 10,
};

/** The ground-truth mix of each kind (overall about 15% urgent, 35% can wait, 50% FYI). */
export const KIND_TRUTH: Readonly<Record<ChannelKind, Readonly<Record<AiCategory, number>>>> = {
  team: { urgent: 0.14, can_wait: 0.46, fyi: 0.4 },
  project: { urgent: 0.12, can_wait: 0.55, fyi: 0.33 },
  customer: { urgent: 0.3, can_wait: 0.45, fyi: 0.25 },
  incident: { urgent: 0.6, can_wait: 0.1, fyi: 0.3 },
  social: { urgent: 0, can_wait: 0.05, fyi: 0.95 },
  announce: { urgent: 0.02, can_wait: 0.08, fyi: 0.9 },
  bot: { urgent: 0.1, can_wait: 0.05, fyi: 0.85 },
};

const PRIVATE_SHARE: Readonly<Record<ChannelKind, number>> = {
  team: 0.12,
  project: 0.15,
  customer: 0.25,
  incident: 0.1,
  social: 0.02,
  announce: 0,
  bot: 0,
};

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

interface Draft {
  name: string;
  topic: string;
  team?: Team;
  bot?: string;
}

function draft(rng: Rng, kind: ChannelKind): Draft {
  switch (kind) {
    case 'team': {
      const team = weighted(rng, TEAM_WEIGHTS);
      const prefix = TEAM_CHANNEL_PREFIX[team];
      const area = pick(rng, AREAS);
      const r = rng();
      const name =
        r < 0.45
          ? `${prefix}-${area}`
          : r < 0.65
            ? `${prefix}-${area}-${pick(rng, CHANNEL_SUFFIXES)}`
            : r < 0.75
              ? `${prefix}-${pick(rng, REGIONS)}`
              : r < 0.85
                ? `${prefix}-${pick(rng, CHANNEL_SUFFIXES)}`
                : `${prefix}-${area}-${pick(rng, REGIONS)}`;
      return { name, team, topic: `${team}: ${area.replace(/-/g, ' ')} work, questions and updates` };
    }
    case 'project': {
      const code = pick(rng, PROJECT_CODENAMES);
      const r = rng();
      const name =
        r < 0.35
          ? `proj-${code}`
          : r < 0.65
            ? `proj-${code}-${pick(rng, AREAS)}`
            : r < 0.8
              ? `${code}-launch`
              : r < 0.9
                ? `${code}-v${intBetween(rng, 2, 9)}`
                : `${code}-${pick(rng, CHANNEL_SUFFIXES)}`;
      const team = pick(rng, ['Engineering', 'Product', 'Design', 'Marketing', 'Data'] as const);
      return { name, team, topic: `Project ${cap(code)}: scope, status and decisions` };
    }
    case 'customer': {
      const customer = pick(rng, CUSTOMERS);
      const r = rng();
      const name = r < 0.5 ? `cust-${slug(customer)}` : r < 0.7 ? `ext-${slug(customer)}` : `cust-${slug(customer)}-${pick(rng, REGIONS)}`;
      const team = pick(rng, ['Sales', 'Support', 'Sales', 'Legal'] as const);
      return { name, team, topic: `${customer} account: renewal, escalations and contacts` };
    }
    case 'incident': {
      const r = rng();
      const svc = pick(rng, SERVICES);
      if (r < 0.7) {
        const n = intBetween(rng, 1000, 9999);
        return {
          name: `incident-${n}`,
          team: 'Engineering',
          bot: chance(rng, 0.6) ? 'PagerBot' : undefined,
          topic: `Incident ${n}: ${svc} degraded. Updates every 30 min`,
        };
      }
      if (r < 0.85) return { name: `inc-${svc}-${intBetween(rng, 1, 99)}`, team: 'Engineering', bot: 'PagerBot', topic: `Incident on ${svc}` };
      return { name: `alerts-${svc}`, team: 'Engineering', bot: 'PagerBot', topic: `Alerts for ${svc}` };
    }
    case 'social': {
      const r = rng();
      const name =
        r < 0.4
          ? pick(rng, HOBBIES)
          : r < 0.75
            ? `${pick(rng, HOBBIES)}-${pick(rng, OFFICES)}`
            : r < 0.9
              ? `${pick(rng, OFFICES)}-social`
              : `social-${pick(rng, OFFICES)}`;
      return { name, topic: 'Off-topic fun. Be nice :slightly_smiling_face:' };
    }
    case 'announce': {
      const team = weighted(rng, TEAM_WEIGHTS);
      const r = rng();
      const name =
        r < 0.3
          ? `announce-${TEAM_CHANNEL_PREFIX[team]}`
          : r < 0.55
            ? `${pick(rng, OFFICES)}-office`
            : r < 0.8
              ? `news-${pick(rng, AREAS)}`
              : `${TEAM_CHANNEL_PREFIX[team]}-announcements`;
      return { name, team, topic: 'Announcements only, please reply in threads' };
    }
    case 'bot': {
      const r = rng();
      if (r < 0.35) {
        const svc = pick(rng, SERVICES);
        return { name: `deploys-${svc}`, team: 'Engineering', bot: 'deploybot', topic: `Deploys of ${svc}` };
      }
      if (r < 0.55) {
        const repo = pick(rng, REPOS);
        return { name: `ci-${repo}`, team: 'Engineering', bot: 'GitHub', topic: `CI for ${repo}` };
      }
      if (r < 0.75) {
        const key = pick(rng, TICKET_PREFIXES).toLowerCase();
        return { name: `jira-${key}`, team: 'Engineering', bot: 'Jira', topic: `Jira updates for ${key.toUpperCase()}` };
      }
      if (r < 0.9) {
        const repo = pick(rng, REPOS);
        return { name: `github-${repo}`, team: 'Engineering', bot: 'GitHub', topic: `Pull requests in ${repo}` };
      }
      const repo = pick(rng, REPOS);
      return { name: `builds-${repo}`, team: 'Engineering', bot: 'deploybot', topic: `Build results for ${repo}` };
    }
  }
}

/**
 * A generated channel with a name not in `used` (which it adds to): a few fresh draws, then
 * the draft name with a number, and finally with the channel's own index counting up until unused.
 */
export function generateChannel(rng: Rng, used: Set<string>, index: number): ChannelBlueprint {
  const kind = weighted(rng, KIND_WEIGHTS);
  let d = draft(rng, kind);
  for (let attempt = 0; attempt < 5 && used.has(d.name); attempt++) d = draft(rng, kind);
  let name = d.name;
  for (let attempt = 0; attempt < 8 && used.has(name); attempt++) name = `${d.name}-${intBetween(rng, 2, attempt < 4 ? 99 : 999)}`;
  for (let k = index; used.has(name); k++) name = `${d.name}-${k}`;
  used.add(name);
  const blueprint: ChannelBlueprint = { name, kind, topic: d.topic, is_private: chance(rng, PRIVATE_SHARE[kind]) };
  if (d.team) blueprint.team = d.team;
  if (d.bot) blueprint.bot = d.bot;
  return blueprint;
}
