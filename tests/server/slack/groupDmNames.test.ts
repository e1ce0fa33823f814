/**
 * Group DM and DM names are built by Sift from its members' Slack names (issue 12 §4): a name with
 * a right-to-left override or control characters must not reach the joined 'a, b, c' name that
 * every list, title and notification shows. Over HTTP, after a full sync from the fake Slack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signInSlack, startSlackTestServer, until, type SlackTestServer } from '../slackHelpers';
import { startFakeSlack } from '../../fakes/slackServer';
import { HIDDEN } from '../../fixtures/hidden';

let server: SlackTestServer;
afterEach(async () => {
  await server?.close();
});

describe('group DM names from hostile Slack names', () => {
  it('are joined without bidi or control characters', async () => {
    const fake = await startFakeSlack({ size: 'small' });
    const me = fake.member.id;
    const group = fake.workspace.conversations.find((c) => c.kind === 'mpim' && c.members.includes(me))!;
    const others = group.members.filter((m) => m !== me);
    // An RLO would turn 'Mallory gpj.exe, Bob' into 'Mallory boB ,exe.jpg' on screen; NUL and ESC hide in logs and titles.
    const hostile = ['Mallory \u202Egpj.exe', '\u2066Bob\u2069\u0000', 'Eve\u001B[2J\u200F'];
    const clean = ['Mallory gpj.exe', 'Bob', 'Eve[2J'];
    others.forEach((id, i) => {
      const user = fake.workspace.users.find((u) => u.id === id)!;
      user.profile.display_name = hostile[i % hostile.length]!;
    });
    server = await startSlackTestServer({ fakeSlack: fake });
    const signIn = await signInSlack(server);
    await until(
      async () => (await server.store.getSyncState<{ lastFullSyncAt: number | null }>(fake.team.id, me))?.lastFullSyncAt != null,
      45_000,
      'initial sync',
    );

    const res = await api(server.url, signIn.token)('/api/conversations/data?type=dm');
    expect(res.status).toBe(200);
    const stored = (res.body.data.conversations as { id: string; name: string }[]).find((c) => c.id === group.id)!;
    expect(stored.name).toBe(others.map((_, i) => clean[i % clean.length]).join(', '));
    expect(stored.name).not.toMatch(HIDDEN);
    await fake.close();
  });
});
