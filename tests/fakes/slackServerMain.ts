/**
 * Runs the fake Slack server by hand: `PORT=8788 npx tsx tests/fakes/slackServerMain.ts`, then point
 * Sift's Slack connector at the printed API URL (WebClient slackApiUrl) and authorize URL, with the
 * printed client id/secret and app token. Optional env: HOST, FAKE_SLACK_SIZE (small | default),
 * FAKE_SLACK_SEED, FAKE_SLACK_TOKEN_ROTATION=1, FAKE_SLACK_TOKEN_TTL (seconds), FAKE_SLACK_CLIENT_ID,
 * FAKE_SLACK_CLIENT_SECRET, FAKE_SLACK_APP_TOKEN, FAKE_SLACK_APP_POSTS=0 (the seeded chatter only,
 * without the app posts, bots, Slack Connect people, user groups and emoji).
 */
import { startFakeSlack } from './slackServer';

const numberEnv = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const size = process.env.FAKE_SLACK_SIZE === 'small' ? 'small' : 'default';

const fake = await startFakeSlack({
  port: numberEnv('PORT') ?? 0,
  host: process.env.HOST,
  size,
  seed: numberEnv('FAKE_SLACK_SEED'),
  tokenRotation: process.env.FAKE_SLACK_TOKEN_ROTATION === '1',
  accessTokenTtlSeconds: numberEnv('FAKE_SLACK_TOKEN_TTL'),
  clientId: process.env.FAKE_SLACK_CLIENT_ID,
  clientSecret: process.env.FAKE_SLACK_CLIENT_SECRET,
  appToken: process.env.FAKE_SLACK_APP_TOKEN,
  appPosts: process.env.FAKE_SLACK_APP_POSTS !== '0',
});

const conversations = fake.workspace.conversations;
console.log(
  [
    `Fake Slack (${size}) at ${fake.url}`,
    `  api url        ${fake.apiUrl}`,
    `  authorize url  ${fake.authorizeUrl}`,
    `  client id      ${fake.clientId}`,
    `  client secret  ${fake.clientSecret}`,
    `  app token      ${fake.appToken}`,
    `  team           ${fake.team.name} (${fake.team.id})`,
    `  member         ${fake.member.real_name} (${fake.member.id}) consents on the authorize page`,
    `  workspace      ${fake.workspace.users.length} users, ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.messages.length, 0)} top-level messages`,
  ].join('\n'),
);
const extras = fake.workspace.extras;
if (extras) {
  const name = (id: string) => `#${conversations.find((c) => c.id === id)?.name ?? '?'} (${id})`;
  console.log(
    [
      `  app posts      ${extras.appPosts.length} (${extras.appPosts.filter((p) => p.unread).length} unread) in ${name(extras.alerts)}, ${name(extras.deploys)}, ${name(extras.teamUpdates)} and app DMs`,
      `  slack connect  ${name(extras.shared)}; external person ${extras.externalUserId} of ${extras.externalTeam.name} (${extras.externalTeam.id}), DM ${extras.externalIm}`,
      `  bots           ${fake.workspace.bots.length} (webhook only: ${extras.webhookBotIds.join(' ')})`,
      `  user groups    ${fake.workspace.usergroups.map((g) => `@${g.handle} ${g.id}`).join(', ')}`,
      `  emoji          ${Object.keys(fake.workspace.emoji)
        .map((e) => `:${e}:`)
        .join(' ')}`,
    ].join('\n'),
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fake.close().then(() => process.exit(0)));
}
