/**
 * Several servers, one truth (issue 15 §2, §3): two real Sift servers (`src/server/main.ts` as child processes,
 * the way `npm start` runs it) on one real PostgreSQL, over HTTP.
 *
 * - a session made on A works on B;
 * - a message sent through A reaches a stream on B once, with the member's next sequence;
 * - sends alternating between A and B give both servers' streams the same gap-free sequence;
 * - a hard kill (SIGKILL) of A during sends loses nothing A acknowledged: B holds every message and its stream
 *   told of each once;
 * - background work runs once, on whichever server is alive: the demo simulator and Slack polling each run on
 *   exactly one of them, and move to the other when it dies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/model/types';
import { api, openStream, signIn, type StreamReader } from './helpers';
import { startPostgres, type RunningPostgres } from './postgres';
import { startSift, type SiftProcess as Child } from './siftProcess';
import { signInSlack } from './slackHelpers';
import { startFakeSlack } from '../fakes/slackServer';

const until = async (predicate: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** The events of a stream that tell of a new message, by its text. */
const messagesIn = (events: LiveEvent[]) =>
  events
    .filter((e) => e.type === 'message_update' && (e.data as { action?: string }).action === 'new_message')
    .map((e) => ({
      sequence: e.sequence!,
      text: (e.data as { message: { text: string } }).message.text,
    }));

let postgres: RunningPostgres;
let a: Child;
let b: Child;
let token: string;
let channel: string;

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.database();
  // Started together: they migrate once and generate the demo workspace once between them.
  [a, b] = await Promise.all([startSift(url), startSift(url)]);
  token = (await signIn(a.url)).token;
  const list = await api(a.url, token)('/api/conversations/data');
  channel = (list.body.data.conversations as Array<{ id: string; type: string }>).find((c) => c.type === 'channel')!.id;
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await postgres?.stop();
});

describe('two Sift servers on one PostgreSQL', () => {
  it('started together, generated the demo workspace once', async () => {
    // One server generated the demo's workspaces (Acme and Globex); the other waited and found them.
    const generated = (child: Child) => child.log.filter((line) => line.includes('demo workspace generated')).length;
    expect([generated(a), generated(b)].sort()).toEqual([0, 2]);
    const [fromA, fromB] = await Promise.all([api(a.url, token)('/api/conversations/data'), api(b.url, token)('/api/conversations/data')]);
    expect(fromB.body.data.conversations.length).toBe(fromA.body.data.conversations.length);
  });

  it('a session made on A works on B, and a sign-out on B ends it on A', async () => {
    const session = await signIn(a.url);
    expect((await api(b.url, session.token)('/api/auth/status')).body.authenticated).toBe(true);
    expect((await api(b.url, session.token)('/auth/logout', { method: 'POST', body: {} })).status).toBeLessThan(300);
    expect((await api(a.url, session.token)('/api/auth/status')).body.authenticated).toBe(false);
  });

  it('a message sent through A reaches a stream on B once, with the next sequence', async () => {
    const stream = await openStream(b.url, token);
    try {
      await stream.until((events) => events.some((e) => e.type === 'connection'));
      const sequence = (stream.events.find((e) => e.type === 'connection')!.data as { currentSequence: number }).currentSequence;
      const sent = await api(a.url, token)('/api/messages/send', { body: { channel, text: 'from A to B' } });
      expect(sent.status).toBe(200);
      await stream.until((events) => messagesIn(events).some((m) => m.text === 'from A to B'), 10_000);
      // Any later duplicate would arrive by now (notifications are delivered on commit, in milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ours = messagesIn(stream.events).filter((m) => m.text === 'from A to B');
      expect(ours).toHaveLength(1);
      expect(ours[0]!.sequence).toBe(sequence + 1);
    } finally {
      stream.close();
    }
  });

  it('sends alternating between A and B give both servers’ streams one gap-free sequence', async () => {
    const [onA, onB] = await Promise.all([openStream(a.url, token), openStream(b.url, token)]);
    try {
      await onA.until((events) => events.some((e) => e.type === 'connection'));
      await onB.until((events) => events.some((e) => e.type === 'connection'));
      const texts = Array.from({ length: 20 }, (_, i) => `alternating ${i}`);
      // Concurrently, half through each server.
      const answers = await Promise.all(texts.map((text, i) => api(i % 2 ? b.url : a.url, token)('/api/messages/send', { body: { channel, text } })));
      expect(answers.map((r) => r.status)).toEqual(texts.map(() => 200));
      const all = (reader: StreamReader) => reader.events.filter((e) => e.sequence !== undefined && e.type !== 'connection');
      const seen = (reader: StreamReader) => messagesIn(reader.events).filter((m) => m.text.startsWith('alternating '));
      await onA.until(() => seen(onA).length >= texts.length, 15_000);
      await onB.until(() => seen(onB).length >= texts.length, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Later events (the AI's labels of the new messages) may still be on their way to one of them: the common part.
      const n = Math.min(all(onA).length, all(onB).length);
      const sequencesA = all(onA)
        .map((e) => e.sequence!)
        .slice(0, n);
      const sequencesB = all(onB)
        .map((e) => e.sequence!)
        .slice(0, n);
      expect(n).toBeGreaterThanOrEqual(texts.length);
      expect(sequencesB).toEqual(sequencesA);
      for (let i = 1; i < sequencesA.length; i++) expect(sequencesA[i]).toBe(sequencesA[i - 1]! + 1);
      expect(new Set(seen(onA).map((m) => m.text))).toEqual(new Set(texts));
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('a hard kill of A during sends loses nothing A acknowledged, and B’s stream tells of each once', async () => {
    const stream = await openStream(b.url, token);
    await stream.until((events) => events.some((e) => e.type === 'connection'));
    const acknowledged: string[] = [];
    let killed = false;
    const sending = (async () => {
      for (let i = 0; !killed; i++) {
        const text = `before the kill ${i}`;
        try {
          const res = await api(a.url, token)('/api/messages/send', { body: { channel, text } });
          if (res.status === 200) acknowledged.push(text);
        } catch {
          return; // the connection died with A
        }
      }
    })();
    await until(() => acknowledged.length >= 10, 20_000, 'ten acknowledged sends');
    a.process.kill('SIGKILL');
    killed = true;
    await sending;
    try {
      await stream.until((events) => acknowledged.every((text) => messagesIn(events).some((m) => m.text === text)), 15_000);
      const told = messagesIn(stream.events).filter((m) => m.text.startsWith('before the kill '));
      expect(new Set(told.map((m) => m.text)).size).toBe(told.length);
      const stored = await api(b.url, token)(`/api/conversations/${encodeURIComponent(channel)}/threads`);
      const texts = new Set((stored.body.conversation.messages as Array<{ text: string }>).map((m) => m.text));
      for (const text of acknowledged) expect(texts.has(text)).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('background work on two servers', () => {
  it('runs the demo simulator on one server only, and moves it when that server dies', async () => {
    const url = await postgres.database();
    const fast = { SIFT_SIMULATOR_RATE: '600' };
    const [c, d] = await Promise.all([startSift(url, fast), startSift(url, fast)]);
    try {
      const leads = (child: Child) => child.log.filter((line) => line.includes('leading a background job') && line.includes('demo-simulator')).length;
      await until(() => leads(c) + leads(d) === 1, 20_000, 'a leader');
      const [leader, follower] = leads(c) ? [c, d] : [d, c];
      // A few seconds more: the follower keeps trying and never leads while the leader lives.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(leads(follower)).toBe(0);
      leader.process.kill('SIGKILL');
      await until(() => leads(follower) === 1, 30_000, 'the follower to take the lead');
      const viewer = (await signIn(follower.url)).token;
      const stream = await openStream(follower.url, viewer);
      try {
        await stream.until((events) => events.some((e) => e.type === 'message_update'), 20_000);
      } finally {
        stream.close();
      }
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  }, 90_000);
});

describe('Slack polling on two servers', () => {
  it('polls from one server only, and moves to the other when it dies', async () => {
    const fake = await startFakeSlack({ size: 'small' });
    const url = await postgres.database();
    const slack = {
      SLACK_CLIENT_ID: fake.clientId,
      SLACK_CLIENT_SECRET: fake.clientSecret,
      SLACK_API_URL: fake.apiUrl,
      SLACK_AUTHORIZE_URL: fake.authorizeUrl,
      SIFT_SLACK_POLL_SECONDS: '0.5',
      SIFT_SECRET: 'the same secret on every server',
    };
    const [c, d] = await Promise.all([startSift(url, slack), startSift(url, slack)]);
    try {
      const leads = (child: Child) => child.log.filter((line) => line.includes('leading a background job') && line.includes('slack-polling')).length;
      await until(() => leads(c) + leads(d) === 1, 20_000, 'a polling leader');
      const [leader, follower] = leads(c) ? [c, d] : [d, c];
      // Signed in through the follower: its session and token serve the leader's polling (the same secret).
      const { token } = await signInSlack(follower);
      const me = fake.member.id;
      const channel = fake.workspace.conversations.find((conv) => conv.kind === 'public_channel' && conv.members.includes(me) && conv.members.length > 2)!;
      const other = channel.members.find((m) => m !== me)!;
      const stream = await openStream(follower.url, token);
      try {
        const polledBy = () => fake.calls.filter((call) => call.method === 'users.conversations').length;
        // The sign-in's full sync first (the polls are incremental syncs after it).
        await stream.until((events) => events.some((e) => e.type === 'fetch_complete'), 60_000);
        const before = fake.post(other, channel.id, 'polled by the leader');
        await stream.until((events) => events.some((e) => (e.data as { message?: { ts?: string } }).message?.ts === before.ts), 30_000);
        expect(leads(follower)).toBe(0);
        leader.process.kill('SIGKILL');
        await until(() => leads(follower) === 1, 30_000, 'the follower to take the polling');
        const polls = polledBy();
        const after = fake.post(other, channel.id, 'polled by the follower');
        await stream.until((events) => events.some((e) => (e.data as { message?: { ts?: string } }).message?.ts === after.ts), 30_000);
        expect(polledBy()).toBeGreaterThan(polls);
      } finally {
        stream.close();
      }
    } finally {
      await Promise.all([c.stop(), d.stop()]);
      await fake.close();
    }
  }, 180_000);
});
