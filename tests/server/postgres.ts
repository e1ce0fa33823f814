/**
 * A real PostgreSQL for the tests (issue 15 §3), started by the tests themselves: Debian's `postgresql` binaries
 * (installed by .ci/run when missing), a cluster in a temporary folder, run as the unprivileged `postgres` user
 * when the tests run as root (PostgreSQL refuses root), listening on 127.0.0.1 and a free port, with durability
 * off (a test database is thrown away). Each `database()` is a fresh, empty database of its own.
 *
 *   const pg = await startPostgres();          // ~1-2 s: initdb and start
 *   const url = await pg.database();            // postgres://sift@127.0.0.1:PORT/sift_1
 *   await pg.stop();                            // fast shutdown, the folder removed
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface RunningPostgres {
  /** The cluster's own `postgres` database (to create databases from). */
  adminUrl: string;
  /** A new empty database; answers its connection string. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

/** Where initdb and postgres are: on the PATH, or Debian's /usr/lib/postgresql/<version>/bin (the newest); null: nowhere. */
function findBinaries(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin');
  return null;
}

/** The binaries; missing, Debian's package is installed when this runs as root on Debian (as the Chromium of the e2e tests is). */
function binaries(): string {
  const found = findBinaries();
  if (found) return found;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("PostgreSQL is missing: installing Debian's postgresql package (apt-get install postgresql)...\n");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'postgresql'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findBinaries();
    if (installed) return installed;
  }
  throw new Error("The store tests need PostgreSQL's binaries (initdb, postgres): install them with `sudo apt-get install postgresql`.");
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs PostgreSQL's programs as `postgres` when this process is root. */
function asOwner(program: string, args: string[]): { command: string; args: string[] } {
  return process.getuid?.() === 0 ? { command: 'runuser', args: ['-u', 'postgres', '--', program, ...args] } : { command: program, args };
}

export async function startPostgres(): Promise<RunningPostgres> {
  const bin = binaries();
  const dir = mkdtempSync(join(tmpdir(), 'sift-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const init = asOwner(join(bin, 'initdb'), ['-D', data, '-U', 'sift', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  execFileSync(init.command, init.args, { stdio: 'pipe' });
  const port = await freePort();
  const run = asOwner(join(bin, 'postgres'), [
    '-D',
    data,
    '-k',
    dir,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  const server: ChildProcess = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4_000)));
  const admin = `postgres://sift@127.0.0.1:${port}/postgres`;
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: admin });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (attempt > 100 || server.exitCode !== null) throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  let databases = 0;
  return {
    adminUrl: admin,
    async database() {
      const name = `sift_${++databases}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://sift@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // pg_ctl's fast shutdown: the server itself ends its connections and exits (runuser does not pass signals on).
        const stopping = asOwner(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w']);
        try {
          execFileSync(stopping.command, stopping.args, { stdio: 'pipe' });
        } catch {
          server.kill('SIGKILL');
        }
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
