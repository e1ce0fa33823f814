/**
 * Background work runs once across servers and moves when its server dies (issue 15 §2), on a real PostgreSQL
 * started by the test: of two servers, one leads a job; when the leader's database session dies (its process
 * killed, as PostgreSQL sees it) the other takes the job over; a leader that stops hands it on; on SQLite the one
 * server leads at once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lead, lockKey, type Leadership } from '../../src/server/leadership';
import { startPostgres, type RunningPostgres } from './postgres';

let postgres: RunningPostgres;
let url: string;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.database();
}, 60_000);
afterAll(() => postgres?.stop());

/** A job that records when each server runs it. */
function job(server: string, log: string[]) {
  return () => {
    log.push(`start ${server}`);
    return () => void log.push(`stop ${server}`);
  };
}

async function until(check: () => boolean, label: string, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ends the database session holding a job's lock, as PostgreSQL does when that server's process dies. */
async function killHolder(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const objid = lockKey(name) >>> 0;
  const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid::bigint = $1`, [objid]);
  expect(rows).toHaveLength(1);
  await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  await admin.end();
}

describe('background work across servers', () => {
  it('on SQLite the one server leads at once, and stopping stops the job', async () => {
    const log: string[] = [];
    const only = lead({ name: 'prune', start: job('A', log) });
    expect(only.leading).toBe(true);
    await only.stop();
    expect(only.leading).toBe(false);
    expect(log).toEqual(['start A', 'stop A']);
  });

  it('one of two servers leads a job; when its session dies, the other takes the job over', async () => {
    const log: string[] = [];
    const name = 'slack-sync:T1:U1';
    const a: Leadership = lead({ url, name, start: job('A', log), retryMs: 100 });
    await until(() => a.leading, 'A to lead');
    const b = lead({ url, name, start: job('B', log), retryMs: 100 });
    // B tries a few times while A holds the job.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect([a.leading, b.leading]).toEqual([true, false]);

    await killHolder(name);
    await until(() => b.leading, 'B to take over');
    expect(a.leading).toBe(false);
    expect(log).toEqual(['start A', 'stop A', 'start B']);
    // A's retries now find B leading.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([a.leading, b.leading]).toEqual([false, true]);

    // B stops (a deploy): A takes the job back.
    await b.stop();
    await until(() => a.leading, 'A to lead again');
    expect(log).toEqual(['start A', 'stop A', 'start B', 'stop B', 'start A']);
    await a.stop();
  });

  it('different jobs lead independently', async () => {
    const log: string[] = [];
    const one = lead({ url, name: 'simulator', start: job('one', log), retryMs: 100 });
    const two = lead({ url, name: 'classify', start: job('two', log), retryMs: 100 });
    await until(() => one.leading && two.leading, 'both to lead');
    await Promise.all([one.stop(), two.stop()]);
    expect(log.sort()).toEqual(['start one', 'start two', 'stop one', 'stop two']);
  });
});
