/** The server-postgres project's global setup: one real PostgreSQL for the whole run (tests/server/postgres.ts). */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresAdmin', postgres.adminUrl);
  return () => postgres.stop();
}
