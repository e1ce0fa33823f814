/**
 * A real Sift server as its own process (`src/server/main.ts`, the way `npm start` runs it), for the tests and
 * benchmarks of several servers on one PostgreSQL (issue 15): a free port, a data folder of its own, its log lines
 * kept. `stop()` sends SIGTERM (a clean stop: streams drained); `process.kill('SIGKILL')` is a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres';

export interface SiftProcess {
  url: string;
  process: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

/** Starts `main.ts` on a free port over the database; resolves once it listens. */
export async function startSift(databaseUrl: string, env: Record<string, string> = {}): Promise<SiftProcess> {
  // A PORT in `env` restarts a server on its address (a restart); otherwise a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-two-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SIFT_DB_POOL_SIZE: '4',
      HOST: '127.0.0.1',
      SIFT_DATA_DIR: dataDir,
      SIFT_SIMULATOR_RATE: '0',
      SIFT_LOG_LEVEL: 'info',
      SIFT_TEST_DB: '',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Sift did not start:\n${log.join('\n')}`)), 60_000);
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        log.push(line);
        if (line.includes('Sift is running on')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Sift exited with ${code}:\n${log.join('\n')}`));
    });
  });
  return {
    url,
    process: child,
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
