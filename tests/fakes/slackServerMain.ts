/**
 * Runs the fake Slack server by hand: `PORT=8788 npx tsx tests/fakes/slackServerMain.ts`, then point
 * Sift's Slack connector at the printed API URL (WebClient slackApiUrl) and authorize URL, with the
 * printed client id/secret and app token. Optional env: HOST, FAKE_SLACK_SIZE (small | default),
 * FAKE_SLACK_SEED, FAKE_SLACK_TOKEN_ROTATION=1, FAKE_SLACK_TOKEN_TTL (seconds), FAKE_SLACK_CLIENT_ID,
 * FAKE_SLACK_CLIENT_SECRET, FAKE_SLACK_APP_TOKEN.
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fake.close().then(() => process.exit(0)));
}
