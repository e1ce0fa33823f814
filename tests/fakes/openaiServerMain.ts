/**
 * Runs the fake OpenAI server by hand: `PORT=8787 npx tsx tests/fakes/openaiServerMain.ts`, then
 * start Sift with SIFT_AI_BASE_URL set to the printed URL. Optional env: HOST, FAKE_OPENAI_API_KEY
 * (require this key), FAKE_OPENAI_DELAY_MS and FAKE_OPENAI_CHUNK_DELAY_MS (a slow model).
 */
import { startFakeOpenAi } from './openaiServer';

const numberEnv = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);

const fake = await startFakeOpenAi({
  port: numberEnv('PORT') ?? 0,
  host: process.env.HOST,
  apiKey: process.env.FAKE_OPENAI_API_KEY,
  delayMs: numberEnv('FAKE_OPENAI_DELAY_MS'),
  chunkDelayMs: numberEnv('FAKE_OPENAI_CHUNK_DELAY_MS'),
});
console.log(fake.url);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fake.close().then(() => process.exit(0)));
}
