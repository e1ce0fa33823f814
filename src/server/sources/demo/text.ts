/**
 * Message texts for the demo workspace (and the live simulator): templates per category with
 * slots for people, channels, projects, services, times and tickets, written in Slack markup
 * (`<@U…>`, `<#C…|name>`, `<https://…|label>`, `:emoji:`, `*bold*`, `_italic_`, `` `code` ``).
 *
 * - urgent: incidents, outages, security issues, blockers, asks with a deadline today.
 * - can_wait: review requests this week, planning questions, "when you get a chance".
 * - fyi: announcements, newsletters, social chatter, bot notifications.
 */
import type { AiCategory, ConversationType } from '../../../model/types';
import { THREAD_TITLE_LENGTH } from '../../../model/constants';
import type { Rng } from './random';
import {
  CHANGES,
  CLOUD_REGIONS,
  CUSTOMERS,
  DATABASES,
  DEADLINE_TIMES,
  DEPENDENCIES,
  DOC_TITLES,
  FIRST_NAMES,
  LATER_DAYS,
  PROJECT_CODENAMES,
  REPOS,
  SERVICES,
  TEAMS,
  TICKET_PREFIXES,
  VENDORS,
  WEEKDAYS,
} from './vocab';

/** What a text may refer to. Every field is optional; missing ones fall back to plain words. */
export interface DemoTextContext {
  /** The signed-in member: asks in channels address them with `<@member>`. */
  memberId?: string;
  /** Users that may be mentioned (existing user ids). */
  userIds?: readonly string[];
  /** Channels that may be mentioned (existing public channels). */
  channels?: readonly { id: string; name: string }[];
  /** The author, never mentioned by their own message. */
  authorId?: string;
  /** Set when the author is a bot: its name or handle, any case ('deploybot', 'PagerBot', 'jira', 'GitHub'; others get deploy texts). */
  bot?: string;
  /** A 'dm' speaks to the member directly, without an @-mention. */
  type?: ConversationType;
}

const pickOf = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const titleCase = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** The slot fillers a template calls; each call draws from the rng. */
class Slots {
  constructor(
    readonly r: Rng,
    readonly c: DemoTextContext,
  ) {}
  /** `<@member> ` in a channel or thread, nothing in a DM. */
  hey(): string {
    return this.c.type !== 'dm' && this.c.memberId ? `<@${this.c.memberId}> ` : '';
  }
  /** Mention of the member (even in a DM: used by bots). */
  me(): string {
    return this.c.memberId ? `<@${this.c.memberId}>` : 'you';
  }
  who(): string {
    const ids = this.c.userIds;
    if (ids && ids.length > 0) {
      let id = pickOf(this.r, ids);
      if ((id === this.c.authorId || id === this.c.memberId) && ids.length > 2) id = pickOf(this.r, ids);
      if (id !== this.c.authorId) return `<@${id}>`;
    }
    return this.first();
  }
  first(): string {
    return pickOf(this.r, FIRST_NAMES);
  }
  chan(): string {
    const chans = this.c.channels;
    if (chans && chans.length > 0) {
      const ch = pickOf(this.r, chans);
      return `<#${ch.id}|${ch.name}>`;
    }
    return '#general';
  }
  svc(): string {
    return pickOf(this.r, SERVICES);
  }
  proj(): string {
    return titleCase(pickOf(this.r, PROJECT_CODENAMES));
  }
  cust(): string {
    return pickOf(this.r, CUSTOMERS);
  }
  team(): string {
    return pickOf(this.r, TEAMS);
  }
  time(): string {
    return pickOf(this.r, DEADLINE_TIMES);
  }
  day(): string {
    return pickOf(this.r, LATER_DAYS);
  }
  weekday(): string {
    return pickOf(this.r, WEEKDAYS);
  }
  clock(): string {
    const h = int(this.r, 0, 23);
    const m = int(this.r, 0, 59);
    return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} UTC`;
  }
  ticket(): string {
    return `${pickOf(this.r, TICKET_PREFIXES)}-${int(this.r, 100, 4999)}`;
  }
  pr(): string {
    const n = int(this.r, 1200, 9800);
    return `<https://git.example.com/acme/${pickOf(this.r, REPOS)}/pull/${n}|PR #${n}>`;
  }
  doc(): string {
    const title = pickOf(this.r, DOC_TITLES);
    return `<https://docs.example.com/d/${this.code()}|${title}>`;
  }
  code(): string {
    return Math.floor(this.r() * 0x7fffffff).toString(36);
  }
  version(): string {
    return `v${int(this.r, 1, 4)}.${int(this.r, 0, 30)}.${int(this.r, 0, 12)}`;
  }
  pct(): number {
    return int(this.r, 3, 40);
  }
  n(min: number, max: number): number {
    return int(this.r, min, max);
  }
  db(): string {
    return pickOf(this.r, DATABASES);
  }
  region(): string {
    return pickOf(this.r, CLOUD_REGIONS);
  }
  dep(): string {
    return pickOf(this.r, DEPENDENCIES);
  }
  vendor(): string {
    return pickOf(this.r, VENDORS);
  }
  change(): string {
    return pickOf(this.r, CHANGES);
  }
}

type Template = (s: Slots) => string;

const LUNCH_PLACES = ['the taco place', 'the ramen bar', 'the falafel truck', 'the pho spot', 'the salad place', 'the dim sum place', 'the food hall'];
const FOOD_EMOJI = [':taco:', ':ramen:', ':stuffed_flatbread:', ':green_salad:', ':dumpling:', ':pizza:', ':sushi:'];
const OFFICE_CITIES = ['London', 'Berlin', 'New York', 'San Francisco', 'Lagos', 'Bangalore', 'Tokyo', 'São Paulo', 'Toronto', 'Sydney'];
const TILS = [
  '`git worktree` exists. Game changer',
  'you can `/remind` a whole channel',
  'Postgres has `LATERAL` joins',
  'the office has a nap room on floor 4',
  '`jq` can edit JSON in place with sponge',
  'our CI caches node_modules per branch',
  'you can expense one book a month',
  'Figma has a dev mode',
  '`Ctrl+R` in the terminal searches history',
];
const BOOKS = [
  'The Mythical Man-Month',
  'Thinking, Fast and Slow',
  'Project Hail Mary',
  'The Left Hand of Darkness',
  'An Elegant Puzzle',
  'Things Fall Apart',
  'Klara and the Sun',
  'Shape Up',
  'The Three-Body Problem',
];
const REACTIONS = [
  'lol :joy:',
  'Nice, thanks! :thumbsup:',
  '+1',
  'Love this :heart:',
  'Haha, classic',
  'Agreed :100:',
  'Same here',
  'Congrats! :tada:',
  'Ooh nice :eyes:',
  'Thanks for sharing!',
  'So good :star-struck:',
  'Ha! :laughing:',
  'This is great :raised_hands:',
  'Welcome aboard :wave:',
  'Count me in',
  'Beautiful :sparkles:',
  'Wow :astonished:',
];

const URGENT: readonly Template[] = [
  (s) => `${s.hey()}can you approve ${s.pr()} before ${s.time()}? It's blocking the ${s.proj()} release :rotating_light:`,
  (s) => `:fire: *Prod is down*: \`${s.svc()}\` has been returning 502s since ${s.clock()}. Who's on call?`,
  (s) => `*URGENT*: ${s.cust()} can't log in and their CTO just escalated to us. Need eyes on this now :eyes:`,
  (s) => `:rotating_light: Security issue: an API key for \`${s.svc()}\` was pushed to a public repo. Rotating it now — ${s.hey()}need your sign-off ASAP`,
  (s) => `${s.ticket()} is a blocker for today's launch. Can someone pick it up right now?`,
  (s) => `${s.hey()}error rate on \`${s.svc()}\` jumped to ${s.pct()}% right after the last deploy. Roll back? Need a decision in the next 15 minutes`,
  (s) => `Incident declared: checkout failing for ${s.region()} customers. Join the bridge: <https://meet.example.com/${s.code()}|war room> :sos:`,
  (s) => `${s.hey()}the ${s.cust()} contract has to be signed by EOD today or we lose the renewal. Can you do it before ${s.time()}?`,
  (s) => `*Sev1*: replica lag on \`${s.db()}\` is at ${s.n(12, 90)} minutes and orders are failing. All hands please :fire:`,
  (s) => `${s.hey()}need your approval for the hotfix to \`${s.svc()}\` before ${s.time()} — customers are blocked`,
  (s) => `We're blocked on you: the ${s.proj()} migration can't merge until you approve it, and the deadline is today`,
  (s) =>
    `*Outage update* :rotating_light:\n• Impact: \`${s.svc()}\` unavailable in ${s.region()}\n• Started: ${s.clock()}\n• Next update in 15 min\n${s.hey()}please join the incident call now`,
  (s) =>
    `Customer data may be exposed via the \`${s.svc()}\` export endpoint. Treating it as a P1 security incident — keep discussion in ${s.chan()} until it's contained`,
  (s) =>
    `${s.hey()}the board deck goes to the CEO in ${pickOf(s.r, ['an hour', '45 minutes', 'two hours', '30 minutes'])} and the ${pickOf(s.r, ['revenue', 'churn', 'hiring', 'pipeline', 'burn'])} numbers are still missing. Can you send them ASAP?`,
  (s) => `Payments are failing with \`card_declined\` for everyone since ${s.clock()}. This is urgent! :fire:`,
  (s) => `${s.hey()}quick one: I need a yes/no on the ${s.proj()} go-live before ${s.time()} today`,
  (s) => `:warning: Disk at 97% on \`${s.db()}\` — it'll be full within the hour. Can someone with prod access help immediately?`,
  (s) => `${s.cust()} is threatening to churn over ${s.ticket()}. Escalating: can we get a fix out today?`,
  (s) =>
    `Phishing alert :rotating_light: ${s.n(3, 40)} people got a fake _${pickOf(s.r, ['password reset', 'invoice overdue', 'payroll update', 'shared document'])}_ email. Don't click it; ${s.hey()}we need to force-reset the affected accounts now`,
  (s) => `Status page is red :red_circle: login is down for all users. ${s.who()} is investigating and needs backup right now`,
  (s) => `${s.hey()}are you around? The \`${s.svc()}\` ${s.version()} release is stuck and I need someone with admin rights in the next ${s.n(2, 6) * 10} min`,
  (s) => `Deadline moved up: the ${s.proj()} demo for ${s.cust()} is *today at ${s.time()}*, not Friday. Can you review the slides before then?`,
  (s) => `Rollback failed on \`${s.svc()}\` :x: we're serving errors to ~${s.pct()}% of traffic. Need help now`,
  (s) => `${s.hey()}legal needs your sign-off on the ${s.cust()} DPA before ${s.time()} today, otherwise the deal slips`,
  (s) => `On-call page: \`${s.svc()}\` p99 latency at ${s.n(3, 30)}s and climbing. ${s.hey()}can you take a look right away? cc ${s.who()}`,
  (s) => `Still down :fire: ${s.ticket()} — the workaround didn't hold. ${s.hey()}can we get you on the incident bridge ASAP?`,
  (s) => `${s.hey()}payroll export is failing and payroll runs today at ${s.time()}. Blocker for ${s.n(200, 900)} people :sos:`,
  (s) => `Outage: \`${s.svc()}\` in ${s.region()} is down hard. Customers are paging us, ${s.who()} is incident commander`,
];

const CAN_WAIT: readonly Template[] = [
  (s) => `${s.hey()}when you get a chance, could you review ${s.pr()}? No rush, sometime this week is fine`,
  (s) => `Planning question for Q${s.n(1, 4)}: should ${s.proj()} take priority over ${s.proj()}? Let's discuss at ${s.day()}'s sync`,
  (s) => `Could you take a look at the draft ${s.doc()} by ${s.day()}? :pray:`,
  (s) => `No rush, but do you have thoughts on the ${s.proj()} roadmap? Happy to chat ${s.day()}`,
  (s) => `${s.hey()}can we move our 1:1 to ${s.day()}?`,
  (s) => `I'd love your feedback on the new onboarding mocks <https://figma.example.com/file/${s.code()}|in Figma> whenever you have time`,
  (s) => `Should we deprecate \`${s.svc()}\` v1 next quarter? Adding it to the planning agenda`,
  (s) => `Reminder: self-reviews are due ${s.day()}. Ping me if you need the template :memo:`,
  (s) => `Could you add your estimates to ${s.ticket()} before sprint planning ${s.day()}?`,
  (s) => `${s.hey()}when you have a minute this week: ${s.who()} is asking whether ${s.team()} can help with ${s.proj()}. Thoughts?`,
  (s) => `Proposal for the ${s.proj()} API naming is up: ${s.doc()}. Comments welcome until ${s.day()}`,
  (s) => `Can someone review the \`${s.svc()}\` runbook changes? ${s.pr()} — not urgent`,
  (s) => `Agenda for ${s.day()}'s planning:\n1. ${s.proj()} scope\n2. hiring plan for ${s.team()}\n3. \`${s.svc()}\` tech debt\nAdd anything I missed :pencil:`,
  (s) => `${s.hey()}any chance you could intro me to someone in ${s.team()}? Whenever is convenient`,
  (s) => `I've put together options for the offsite venue ${s.doc()}, please vote by ${s.day()}`,
  (s) => `Do we want to renew the ${s.vendor()} licence (${s.n(10, 400)} seats)? It expires next month, so there's time to decide`,
  (s) => `${s.hey()}could you sign off on the Q${s.n(1, 4)} OKR draft sometime this week? ${s.doc()}`,
  (s) => `Has anyone looked at ${s.ticket()}? Low priority, but it keeps coming up in support tickets :thinking_face:`,
  (s) => `When you get a chance: ${s.who()} wants to pair on the \`${s.svc()}\` refactor ${s.day()}`,
  (s) => `Thinking about splitting \`${s.svc()}\` into two services. Worth a design review next week?`,
  (s) => `Could you update the hiring scorecard for the ${s.team()} role before ${s.day()}'s debrief?`,
  (s) => `${s.hey()}small ask: can you review the blog post draft about ${s.proj()}? ${s.doc()} Sometime before ${s.day()} works`,
  (s) => `What do you think about moving ${s.team()} standups to async? Let's decide in ${s.day()}'s retro`,
  (s) => `${s.hey()}${s.who()} asked for a reference check, could you fill in the form by ${s.day()}? _Takes 10 minutes_`,
  (s) => `Whenever you're free: I'd like your input on the ${s.cust()} renewal pricing before ${s.day()}`,
  (s) => `Open questions on ${s.proj()} (no rush):\n• do we need SSO at launch?\n• who owns \`${s.svc()}\` after the reorg?\nLet's go through them ${s.day()}`,
];

const FYI: readonly Template[] = [
  (s) => `:tada: Please welcome ${s.who()} to the ${s.team()} team!`,
  (s) => `Announcement: the ${pickOf(s.r, OFFICE_CITIES)} office will be closed on ${s.weekday()} for the holiday :palm_tree:`,
  (s) => {
    const n = s.n(20, 180);
    return `This week's newsletter is out: <https://news.example.com/issues/${n}|The Weekly Dispatch #${n}> :newspaper:`;
  },
  (s) => `Lunch at ${pickOf(s.r, LUNCH_PLACES)} at ${pickOf(s.r, ['12', '12:15', '12:30', '1', '1:15'])}, anyone? ${pickOf(s.r, FOOD_EMOJI)}`,
  (s) => `FYI: I shipped the ${s.proj()} update. Release notes: ${s.doc()}`,
  (s) =>
    `Great ${pickOf(s.r, ['demo', 'all-hands', 'retro', 'launch', 'offsite', 'workshop', 'talk'])} today${s.r() < 0.5 ? ' everyone' : `, ${s.who()}`} ${pickOf(s.r, [':clap:', ':raised_hands:', ':100:', ':tada:'])}`,
  (s) => `Sharing the slides from all-hands: <https://docs.example.com/s/${s.code()}|All-hands deck>`,
  (s) => `Happy ${s.weekday()}! ${pickOf(s.r, [':sunny:', ':coffee:', ':wave:', ':smile:', ':partying_face:'])}`,
  (s) => `Photos from the offsite are up <https://photos.example.com/a/${s.code()}|here> :camera_with_flash:`,
  (s) => `Heads up, no action needed: \`${s.svc()}\` logs move to the new retention policy next month`,
  (s) => `Congrats ${s.who()} on the promotion! :tada: :confetti_ball:`,
  (s) => `${s.cust()} renewed for another two years :moneybag:`,
  (s) => `TIL ${pickOf(s.r, TILS)} ${pickOf(s.r, [':exploding_head:', ':bulb:', ':mind_blown:', ':nerd_face:'])}`,
  (s) => `I'll be out ${s.weekday()}, ${s.who()} is covering for me`,
  (s) =>
    `The ${pickOf(s.r, ['coffee machine', 'printer', 'standing desk', 'projector', 'ice machine'])} on floor ${s.n(2, 9)} has been fixed ${pickOf(s.r, [':coffee:', ':tada:', ':white_check_mark:'])}`,
  (s) => `Resolved: the \`${s.svc()}\` latency spike earlier was a noisy neighbour. No customer impact. Postmortem: ${s.doc()}`,
  (s) => `Q${s.n(1, 4)} numbers are in: pipeline up ${s.pct()}% :chart_with_upwards_trend:`,
  (s) => `Just a note: the ${s.proj()} discussion now lives in ${s.chan()}`,
  (s) => `*Weekly ${s.team()} update*\n• Shipped: ${s.proj()} beta :white_check_mark:\n• In progress: ${s.ticket()}\n• Kudos to ${s.who()} :raised_hands:`,
  (s) =>
    `Who's watching the ${pickOf(s.r, ['game', 'final', 'match', 'keynote', 'launch stream'])} tonight? ${pickOf(s.r, [':soccer:', ':basketball:', ':tv:', ':popcorn:'])}`,
  (s) => `Thanks ${s.who()} for the quick fix! :pray:`,
  (s) => {
    const svc = s.svc();
    return `New on the eng blog: <https://blog.example.com/${slug(svc)}-at-scale|How we scaled ${svc}> :rocket:`;
  },
  (s) => `:wave: Hi all, I'm ${s.first()}, I just joined ${s.team()}. Looking forward to working with you!`,
  (s) => `Welcome to ${s.chan()}! Please read the pinned guidelines :pushpin:`,
  (s) => `_Reminder:_ the book club meets ${s.weekday()}, this month it's _${pickOf(s.r, BOOKS)}_ :books:`,
  (s) => `${s.who()} brought cake to celebrate the ${s.proj()} launch :cake:`,
  (s) => pickOf(s.r, REACTIONS),
  (s) => `${pickOf(s.r, REACTIONS)} ${s.r() < 0.5 ? s.who() : ''}`.trim(),
  (s) => `Recording of the ${s.team()} town hall is up: <https://video.example.com/v/${s.code()}|watch here>`,
  (s) => `The ${s.vendor()} workspace is moving to SSO on ${s.weekday()} the ${s.n(2, 28)}th; you'll get an email with details`,
];

/** Bot texts by bot and category. */
const BOT_TEXTS: Readonly<Record<string, Readonly<Record<AiCategory, readonly Template[]>>>> = {
  deploybot: {
    urgent: [
      (s) => `:x: Deploy of \`${s.svc()}\` ${s.version()} to production *failed* at step \`migrate\`. Rollback required — ${s.me()}`,
      (s) => `:rotating_light: Canary for \`${s.svc()}\` is failing health checks in ${s.region()}. Auto-rollback blocked, needs a human now`,
    ],
    can_wait: [
      (s) =>
        `:hourglass: \`${s.svc()}\` ${s.version()} is staged and waiting for approval. Approve when ready: <https://deploy.example.com/r/${s.code()}|release>`,
      (s) => `:calendar: The next release train leaves ${s.day()}. ${s.n(3, 14)} changes are queued for \`${s.svc()}\``,
    ],
    fyi: [
      (s) => `:rocket: Deployed \`${s.svc()}\` ${s.version()} to *production*. :white_check_mark: All checks passed`,
      (s) => `:white_check_mark: Build #${s.n(1000, 99999)} is green on \`main\` (${s.svc()})`,
      (s) => `:rocket: \`${s.svc()}\` ${s.version()} rolled out to ${s.region()} (canary 100%)`,
      (s) => `:white_check_mark: Nightly build of \`${pickOf(s.r, REPOS)}\` passed in ${s.n(4, 19)}m ${s.n(0, 59)}s`,
    ],
  },
  PagerBot: {
    urgent: [
      (s) =>
        `:rotating_light: *TRIGGERED* [P1] \`${s.svc()}\` 5xx rate above ${s.pct()}% for 10 minutes. On call: ${s.me()}. <https://pager.example.com/incidents/${s.code()}|Acknowledge>`,
      (s) => `:rotating_light: *TRIGGERED* [P2] \`${s.db()}\` disk usage 95%. Escalating to ${s.me()} in 5 minutes`,
    ],
    can_wait: [
      (s) => `:calendar: You're on call from ${s.day()}. Swap shifts <https://pager.example.com/schedules|here> if needed`,
      () => `:memo: Weekly on-call report is ready for review, whenever you have a moment`,
    ],
    fyi: [
      (s) => `:white_check_mark: *RESOLVED* [P${s.n(2, 4)}] \`${s.svc()}\` high latency, auto-resolved after ${s.n(2, 40)} minutes`,
      (s) => `:white_check_mark: *RESOLVED* \`${s.db()}\` replication lag back to normal`,
    ],
  },
  Jira: {
    urgent: [
      (s) => `${s.ticket()} *Blocker* assigned to you: "${s.svc()} returns 500 for all ${s.cust()} users". Due today`,
      (s) => `${s.ticket()} was raised to *Highest* priority by ${s.who()}: "Data loss in ${s.proj()} export". Due today`,
    ],
    can_wait: [
      (s) => `${s.ticket()} "${s.proj()} settings page" was assigned to you. Due ${s.day()}`,
      (s) => `${s.who()} mentioned you on ${s.ticket()}: _"Can you estimate this before planning?"_`,
    ],
    fyi: [
      (s) => `${s.ticket()} moved from *In Progress* to *Done* by ${s.who()}`,
      (s) => `${s.ticket()} was closed as _Won't fix_ by ${s.who()}`,
      (s) => `Sprint ${s.n(40, 160)} completed: ${s.n(12, 40)} issues done :white_check_mark:`,
    ],
  },
  GitHub: {
    urgent: [
      (s) => `:x: Required check \`security-scan\` failed on ${s.pr()}: critical vulnerability in \`${s.dep()}\`. Merging is blocked`,
      (s) => `:rotating_light: Secret scanning alert: an AWS key was committed to \`${pickOf(s.r, REPOS)}\`. Revoke it immediately`,
    ],
    can_wait: [
      (s) => `${s.who()} requested your review on ${s.pr()}: "${s.proj()}: ${s.change()}"`,
      (s) => `Dependabot opened ${s.pr()}: bump \`${s.dep()}\`. Review when convenient`,
    ],
    fyi: [
      (s) => `:white_check_mark: ${s.pr()} was merged into \`main\` by ${s.who()}`,
      (s) => `:package: New release ${s.version()} of \`${s.svc()}\` published`,
      (s) => `:white_check_mark: All checks passed on ${s.pr()}`,
    ],
  },
};

const HUMAN_TEXTS: Readonly<Record<AiCategory, readonly Template[]>> = { urgent: URGENT, can_wait: CAN_WAIT, fyi: FYI };

const BOT_BY_LOWER_NAME = new Map(Object.entries(BOT_TEXTS).map(([name, texts]) => [name.toLowerCase(), texts]));

/** A bot's texts by its name, in any case ('PagerBot', or the handle 'pagerbot'); others get deploybot's. */
function botTexts(name: string): Readonly<Record<AiCategory, readonly Template[]>> {
  return BOT_BY_LOWER_NAME.get(name.toLowerCase()) ?? BOT_TEXTS.deploybot!;
}

/**
 * One message text of `category`, drawn with `rng` (deterministic for a given rng state).
 * A bot author (`ctx.bot`) gets that bot's notifications; a person gets conversational text.
 */
export function demoMessageText(rng: Rng, category: AiCategory, ctx: DemoTextContext = {}): string {
  const table = ctx.bot !== undefined ? botTexts(ctx.bot)[category] : HUMAN_TEXTS[category];
  const text = pickOf(rng, table)(new Slots(rng, ctx));
  const first = text.charCodeAt(0);
  return first >= 97 && first <= 122 ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The text of a channel_join / channel_leave system line, as Slack writes it. */
export function systemLineText(subtype: 'channel_join' | 'channel_leave', userId: string): string {
  return subtype === 'channel_join' ? `<@${userId}> has joined the channel` : `<@${userId}> has left the channel`;
}

/**
 * Markup rendered as plain words: user mentions as @name (from `nameOf`), channel mentions as
 * #name, links as their label, formatting marks dropped, whitespace collapsed.
 */
export function plainText(text: string, nameOf: (userId: string) => string | undefined): string {
  return text
    .replace(/<@([A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, label?: string) => `@${label ?? nameOf(id) ?? id}`)
    .replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `#${name ?? id}`)
    .replace(/<([^|>]+)\|([^>]*)>/g, '$2')
    .replace(/<([^>]+)>/g, '$1')
    .replace(/[*`]/g, '')
    .replace(/(^|\s)_(?=\S)/g, '$1')
    .replace(/(\S)_(?=\s|$|[.,!?;:])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A thread's name: the first words of its parent message, at most THREAD_TITLE_LENGTH characters. */
export function threadTitle(parentText: string, nameOf: (userId: string) => string | undefined): string {
  const plain = plainText(parentText, nameOf);
  if (plain.length <= THREAD_TITLE_LENGTH) return plain;
  const cut = plain.slice(0, THREAD_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).replace(/[\s,.:;—-]+$/, '')}…`;
}
