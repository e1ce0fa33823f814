/** The worker bundled by tests/e2e/localCopy.test.ts: the local copy's ops (tests/e2e/localCopyOps.ts). */
import { serveOps } from './workerRpc';
import { localCopyOps } from './localCopyOps';

serveOps(localCopyOps);
