/** The worker bundled by bench/localCopy.ts: the local copy's ops, and SQLite's for the comparison. */
import { serveOps } from '../tests/e2e/workerRpc';
import { localCopyOps } from '../tests/e2e/localCopyOps';
import { sqliteOps } from './localCopySqlite';

serveOps({ ...localCopyOps, ...sqliteOps });
