/** The last session's status (issue 14 §3): saved, read back, wiped; nothing in localStorage. */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { readLastSession, saveLastSession, wipeLastSession } from '../../src/worker/localCopy/lastSession';
import type { AuthStatus } from '../../src/model/types';

const STATUS: AuthStatus = {
  authenticated: true,
  user: { id: 'U1', name: 'dana', real_name: 'Dana Reyes', display_name: 'Dana' } as AuthStatus['user'],
  workspace: { id: 'T1', name: 'Acme' },
  organizations: [{ id: 'T1', name: 'Acme' }],
};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('the last session', () => {
  it('is null at first, then what was saved, and null again once wiped', async () => {
    expect(await readLastSession()).toBeNull();
    await saveLastSession({ memberKey: 'T1:U1', status: STATUS, savedAt: 5 });
    expect(await readLastSession()).toEqual({ memberKey: 'T1:U1', status: STATUS, savedAt: 5 });
    await wipeLastSession();
    expect(await readLastSession()).toBeNull();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain('sift-last-session');
  });

  it('a later session replaces the earlier one', async () => {
    await saveLastSession({ memberKey: 'T1:U1', status: STATUS, savedAt: 1 });
    await saveLastSession({ memberKey: 'T2:U9', status: { ...STATUS, workspace: { id: 'T2', name: 'Beta' } }, savedAt: 2 });
    expect((await readLastSession())?.memberKey).toBe('T2:U9');
  });
});
