/**
 * SPEC §7.6 views over real HTTP: every call's shape, every bad input, one member kept out
 * of another's views, the default position rule (§4.9), live view_update events, and
 * persistence across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/model/types';
import { BUILTIN_VIEWS, type BuiltinView, type CustomView, type View, type ViewUpdateData } from '../../src/model/views';
import { DEMO_WORKSPACES } from '../../src/server/sources/demoSource';
import { FIXED_NOW, api, openStream, signIn, startTestServer, type TestServer } from './helpers';

const MAIN = DEMO_WORKSPACES[0]!;

let server: TestServer;
let now = FIXED_NOW;
/** Members nobody has signed in as yet: each test that needs a clean slate takes one. */
let unused: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: () => now });
  const { token } = await signIn(server.url);
  const users = (await api(server.url, token)('/api/users/display-data')).body.data.users as Record<string, { id: string; is_bot?: boolean }>;
  unused = Object.values(users)
    .filter((u) => !u.is_bot && u.id !== MAIN.memberUserId)
    .map((u) => u.id);
});

afterAll(async () => {
  await server.close();
});

type Call = ReturnType<typeof api>;
interface Member {
  userId: string;
  token: string;
  call: Call;
}

async function freshMember(url = server.url): Promise<Member> {
  const userId = unused.shift();
  if (!userId) throw new Error('out of demo members');
  const { token } = await signIn(url, userId);
  return { userId, token, call: api(url, token) };
}

const rule = (field: string, operator: string, value?: unknown) => (value === undefined ? { field, operator } : { field, operator, value });
const body = (overrides: Record<string, unknown> = {}) => ({
  label: 'Urgent DMs',
  filters: [rule('type', 'eq', 'dm'), rule('ai_category', 'eq', 'urgent')],
  parentViewId: 'conversations',
  ...overrides,
});

async function create(m: Member, overrides: Record<string, unknown> = {}): Promise<CustomView> {
  const res = await m.call<{ view: CustomView }>('/api/custom-views', { body: body(overrides) });
  expect(res.status).toBe(201);
  return res.body.view;
}

const list = async (m: Member, query = '') => (await m.call<{ views: CustomView[] }>(`/api/custom-views${query}`)).body.views;
const allViews = async (m: Member, query = '') => (await m.call<{ views: View[] }>(`/api/all-views${query}`)).body.views;
const builtins = async (m: Member) => (await m.call<{ views: BuiltinView[] }>('/api/builtin-views')).body.views;
const sequence = async (m: Member) => (await m.call('/api/sse/stats')).body.currentSequence as number;
const viewEvents = (events: LiveEvent[]) => events.filter((e) => e.type === 'view_update');

describe('auth', () => {
  it.each([
    ['GET', '/api/custom-views'],
    ['GET', '/api/custom-views/cv_x'],
    ['POST', '/api/custom-views'],
    ['PUT', '/api/custom-views/cv_x'],
    ['DELETE', '/api/custom-views/cv_x'],
    ['PATCH', '/api/custom-views/cv_x/toggle-visibility'],
    ['PATCH', '/api/custom-views/cv_x/visibility'],
    ['POST', '/api/custom-views/reorder'],
    ['GET', '/api/builtin-views'],
    ['PATCH', '/api/builtin-views/dms/toggle-visibility'],
    ['PATCH', '/api/builtin-views/dms/visibility'],
    ['POST', '/api/builtin-views/initialize'],
    ['GET', '/api/all-views'],
  ])('%s %s answers 401 {error} without a valid token', async (method, path) => {
    for (const headers of [{}, { Authorization: 'Bearer not-a-real-token-at-all-123' }] as Array<Record<string, string>>) {
      const res = await fetch(`${server.url}${path}`, { method, headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });
});

describe('custom views', () => {
  it('creates a view: 201 {success, view} with a cv_ id, the trimmed label, defaults, and timestamps from the clock', async () => {
    const m = await freshMember();
    now = FIXED_NOW + 1_000;
    const res = await m.call('/api/custom-views', {
      body: {
        label: '  Urgent DMs  ',
        filters: [rule('type', 'eq', 'dm'), rule('latest_message.user', 'exists')],
        combinator: 'or',
        parentViewId: 'conversations',
        // Unknown keys, and keys the server owns, are ignored.
        id: 'mine',
        isCustom: false,
        created_by: 'someone',
        createdAt: 1,
        extra: { deep: true },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      view: {
        id: expect.stringMatching(/^cv_[A-Za-z0-9_-]{16,}$/),
        label: 'Urgent DMs',
        filters: [
          { field: 'type', operator: 'eq', value: 'dm' },
          { field: 'latest_message.user', operator: 'exists' },
        ],
        combinator: 'or',
        parentViewId: 'conversations',
        position: BUILTIN_VIEWS.filter((v) => v.parentViewId === 'conversations').length + 1,
        isVisible: true,
        isCustom: true,
        created_by: 'user',
        createdAt: FIXED_NOW + 1_000,
        updatedAt: FIXED_NOW + 1_000,
      },
    });
    const again = await create(m);
    expect(again.id).not.toBe(res.body.view.id);
    expect(again).not.toHaveProperty('combinator');
  });

  it('keeps an explicit position and visibility, and accepts the limits exactly', async () => {
    const m = await freshMember();
    const view = await create(m, {
      label: 'x'.repeat(80),
      position: 10_000,
      isVisible: false,
      filters: [
        rule(
          'member_ids',
          'in',
          Array.from({ length: 10_000 }, (_, i) => `U${i}`),
        ),
        ...Array.from({ length: 49 }, () => rule('a.b.0', 'neq', null)),
      ],
    });
    expect(view).toMatchObject({ position: 10_000, isVisible: false, label: 'x'.repeat(80) });
    expect(view.filters).toHaveLength(50);
    expect((view.filters[0]!.value as string[]).length).toBe(10_000);
    expect(view.filters[1]).toEqual({ field: 'a.b.0', operator: 'neq', value: null });
  });

  it('takes a scalar or a list of scalars as a value, nothing nested (issue 12: a 10,000-level filter answered 500)', async () => {
    const m = await freshMember();
    const nested = await m.call<{ error: string }>('/api/custom-views', {
      body: body({ filters: [rule('x', 'eq', { nested: [1, 'two', { three: false }] })] }),
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatch(/filters\.0\.value: must be a string, a number, true, false, null, or a list of those/);
    const deep = '['.repeat(10_000) + '"x"' + ']'.repeat(10_000);
    const raw = `{"label":"deep","filters":[{"field":"name","operator":"eq","value":${deep}}],"parentViewId":"conversations","isVisible":true}`;
    const res = await fetch(`${server.url}/api/custom-views`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json' },
      body: raw,
    });
    expect(res.status).toBe(400);
    expect(await m.call('/api/custom-views').then((r) => (r.body as { views: unknown[] }).views.length)).toBe(0);
  });

  it('reads one view and lists them by position, optionally of one page', async () => {
    const m = await freshMember();
    const c = await create(m, { label: 'C', position: 30 });
    const a = await create(m, { label: 'A', position: 10 });
    const i = await create(m, { label: 'I', parentViewId: 'inbox', position: 20 });
    const b = await create(m, { label: 'B', position: 30 }); // ties by label with C
    expect(await m.call(`/api/custom-views/${a.id}`)).toEqual({ status: 200, body: { success: true, view: a } });
    expect(await m.call('/api/custom-views')).toEqual({ status: 200, body: { success: true, views: [a, i, b, c] } });
    expect((await list(m, '?parentViewId=conversations')).map((v) => v.label)).toEqual(['A', 'B', 'C']);
    expect(await list(m, '?parentViewId=inbox')).toEqual([i]);
    expect(await m.call('/api/custom-views/cv_nothing')).toEqual({ status: 404, body: { error: expect.any(String) } });
  });

  it('updates with PUT: only the fields given change, updatedAt moves, createdAt stays', async () => {
    const m = await freshMember();
    now = FIXED_NOW + 2_000;
    const view = await create(m, { combinator: 'and', position: 7 });
    now = FIXED_NOW + 3_000;
    const res = await m.call(`/api/custom-views/${view.id}`, {
      method: 'PUT',
      body: { label: ' Renamed ', filters: [rule('unread_count', 'gt', 0)], combinator: 'or', isVisible: false, id: 'ignored' },
    });
    expect(res).toEqual({
      status: 200,
      body: {
        success: true,
        view: { ...view, label: 'Renamed', filters: [rule('unread_count', 'gt', 0)], combinator: 'or', isVisible: false, updatedAt: FIXED_NOW + 3_000 },
      },
    });
    const position = await m.call(`/api/custom-views/${view.id}`, { method: 'PUT', body: { position: 3 } });
    expect(position.body.view).toEqual({ ...res.body.view, position: 3 });
    expect((await m.call(`/api/custom-views/${view.id}`)).body.view).toEqual(position.body.view);
    expect((await m.call('/api/custom-views/cv_nothing', { method: 'PUT', body: { label: 'x' } })).status).toBe(404);
  });

  it('moves a view to another page with PUT: it leaves the old page and is appended to the new one', async () => {
    const m = await freshMember();
    const stay = await create(m, { label: 'Stay' });
    const move = await create(m, { label: 'Move' });
    await create(m, { label: 'Inbox one', parentViewId: 'inbox' });
    const res = await m.call<{ view: CustomView }>(`/api/custom-views/${move.id}`, { method: 'PUT', body: { parentViewId: 'inbox' } });
    expect(res.status).toBe(200);
    // 1 built-in + 1 custom on the inbox page, plus one.
    expect(res.body.view).toMatchObject({ parentViewId: 'inbox', position: 3 });
    expect((await list(m, '?parentViewId=conversations')).map((v) => v.id)).toEqual([stay.id]);
    expect((await list(m, '?parentViewId=inbox')).map((v) => v.label)).toEqual(['Inbox one', 'Move']);
    // With a position, the move keeps it.
    const back = await m.call<{ view: CustomView }>(`/api/custom-views/${move.id}`, { method: 'PUT', body: { parentViewId: 'conversations', position: 1 } });
    expect(back.body.view).toMatchObject({ parentViewId: 'conversations', position: 1 });
  });

  it('deletes: {success, id}; the view is gone, and a second delete answers 404', async () => {
    const m = await freshMember();
    const view = await create(m);
    const keep = await create(m, { label: 'Keep' });
    expect(await m.call(`/api/custom-views/${view.id}`, { method: 'DELETE' })).toEqual({ status: 200, body: { success: true, id: view.id } });
    expect((await m.call(`/api/custom-views/${view.id}`)).status).toBe(404);
    expect(await list(m)).toEqual([keep]);
    expect(await m.call(`/api/custom-views/${view.id}`, { method: 'DELETE' })).toEqual({ status: 404, body: { error: expect.any(String) } });
  });

  it('toggles and sets visibility', async () => {
    const m = await freshMember();
    const view = await create(m);
    const off = await m.call(`/api/custom-views/${view.id}/toggle-visibility`, { method: 'PATCH' });
    expect(off).toEqual({ status: 200, body: { success: true, view: { ...view, isVisible: false } } });
    const on = await m.call(`/api/custom-views/${view.id}/toggle-visibility`, { method: 'PATCH' });
    expect(on.body.view.isVisible).toBe(true);
    const set = await m.call(`/api/custom-views/${view.id}/visibility`, { method: 'PATCH', body: { isVisible: false } });
    expect(set).toEqual({ status: 200, body: { success: true, view: { ...view, isVisible: false } } });
    const same = await m.call(`/api/custom-views/${view.id}/visibility`, { method: 'PATCH', body: { isVisible: false } });
    expect(same.body.view.isVisible).toBe(false);
    expect((await m.call(`/api/custom-views/${view.id}`)).body.view.isVisible).toBe(false);
    expect((await m.call('/api/custom-views/cv_nothing/toggle-visibility', { method: 'PATCH' })).status).toBe(404);
    expect((await m.call('/api/custom-views/cv_nothing/visibility', { method: 'PATCH', body: { isVisible: true } })).status).toBe(404);
  });

  it("reorders with a list or a map of positions, answering the member's custom views as GET lists them", async () => {
    const m = await freshMember();
    const a = await create(m, { label: 'A' });
    const b = await create(m, { label: 'B' });
    const c = await create(m, { label: 'C', parentViewId: 'inbox' });
    const res = await m.call<{ success: boolean; views: CustomView[] }>('/api/custom-views/reorder', {
      body: {
        positions: [
          { id: a.id, position: 9 },
          { id: b.id, position: 8 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.views.map((v) => [v.label, v.position])).toEqual([
      ['C', 2],
      ['B', 8],
      ['A', 9],
    ]);
    expect((await list(m, '?parentViewId=conversations')).map((v) => v.label)).toEqual(['B', 'A']);
    const map = await m.call<{ views: CustomView[] }>('/api/custom-views/reorder', { body: { positions: { [a.id]: 0, [c.id]: 40 } } });
    expect(map.status).toBe(200);
    expect(map.body.views.map((v) => [v.label, v.position])).toEqual([
      ['A', 0],
      ['B', 8],
      ['C', 40],
    ]);
    expect(await list(m)).toEqual(map.body.views);
  });

  it('a reorder naming an id the member does not have answers 404 and changes nothing', async () => {
    const m = await freshMember();
    const a = await create(m, { label: 'A', position: 1 });
    const before = await list(m);
    const seq = await sequence(m);
    const res = await m.call('/api/custom-views/reorder', {
      body: {
        positions: [
          { id: a.id, position: 5 },
          { id: 'cv_nothing', position: 6 },
        ],
      },
    });
    expect(res).toEqual({ status: 404, body: { error: expect.any(String) } });
    expect(await list(m)).toEqual(before);
    expect(await sequence(m)).toBe(seq);
  });
});

describe('the default position and ordering (SPEC §4.9)', () => {
  it("appends a new view at the count of the page's built-in and custom sub-views, plus one", async () => {
    const m = await freshMember();
    const conversationsBuiltins = BUILTIN_VIEWS.filter((v) => v.parentViewId === 'conversations').length;
    expect(conversationsBuiltins).toBe(4);
    expect((await create(m, { label: 'one' })).position).toBe(5);
    expect((await create(m, { label: 'two' })).position).toBe(6);
    // Another page counts its own sub-views.
    expect((await create(m, { label: 'inbox one', parentViewId: 'inbox' })).position).toBe(2);
    // Hidden built-ins still count: the sub-view exists.
    await m.call('/api/builtin-views/dms/visibility', { method: 'PATCH', body: { isVisible: false } });
    expect((await create(m, { label: 'three' })).position).toBe(7);
    // Another member's views do not count.
    const other = await freshMember();
    expect((await create(other, { label: 'theirs' })).position).toBe(5);
  });

  it('orders a view without a position as 999, ties by label; PUT position null clears it', async () => {
    const m = await freshMember();
    const late = await create(m, { label: 'Late', position: 998 });
    const after = await create(m, { label: 'After', position: 1_000 });
    const zed = await create(m, { label: 'Zed', position: 4 });
    const cleared = await m.call<{ view: CustomView }>(`/api/custom-views/${zed.id}`, { method: 'PUT', body: { position: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.view).not.toHaveProperty('position');
    // POST with position null makes one without a position too.
    const alpha = await create(m, { label: 'Alpha', position: null });
    expect(alpha).not.toHaveProperty('position');
    expect((await list(m)).map((v) => v.label)).toEqual(['Late', 'Alpha', 'Zed', 'After']);
    expect((await allViews(m)).map((v) => v.id)).toEqual(['conversations', 'dms', 'channels', 'threads', late.id, alpha.id, zed.id, after.id]);
    // The store's own view without a position, read back over HTTP.
    expect((await m.call(`/api/custom-views/${zed.id}`)).body.view).not.toHaveProperty('position');
  });
});

describe('built-in views', () => {
  it("lists the built-ins with the member's settings, toggles and sets their visibility", async () => {
    const m = await freshMember();
    expect(await m.call('/api/builtin-views')).toEqual({ status: 200, body: { success: true, views: BUILTIN_VIEWS } });
    const off = await m.call('/api/builtin-views/dms/toggle-visibility', { method: 'PATCH' });
    expect(off).toEqual({ status: 200, body: { success: true, view: { ...BUILTIN_VIEWS.find((v) => v.id === 'dms'), isVisible: false } } });
    expect((await m.call('/api/builtin-views/dms/toggle-visibility', { method: 'PATCH' })).body.view.isVisible).toBe(true);
    const set = await m.call('/api/builtin-views/threads/visibility', { method: 'PATCH', body: { isVisible: false } });
    expect(set.body).toEqual({ success: true, view: { ...BUILTIN_VIEWS.find((v) => v.id === 'threads'), isVisible: false } });
    expect((await builtins(m)).map((v) => [v.id, v.isVisible])).toEqual([
      ['inbox', true],
      ['conversations', true],
      ['dms', true],
      ['channels', true],
      ['threads', false],
    ]);
    // Settings are the member's own.
    const other = await freshMember();
    expect(await builtins(other)).toEqual(BUILTIN_VIEWS);
  });

  it('answers 404 for an unknown built-in id', async () => {
    const m = await freshMember();
    const own = await create(m);
    for (const id of ['nothing', own.id]) {
      expect(await m.call(`/api/builtin-views/${id}/toggle-visibility`, { method: 'PATCH' })).toEqual({ status: 404, body: { error: expect.any(String) } });
      expect((await m.call(`/api/builtin-views/${id}/visibility`, { method: 'PATCH', body: { isVisible: false } })).status).toBe(404);
    }
  });

  it("initializes the member's settings with the defaults, idempotently, keeping settings already made", async () => {
    const m = await freshMember();
    await m.call('/api/builtin-views/channels/visibility', { method: 'PATCH', body: { isVisible: false } });
    const first = await m.call('/api/builtin-views/initialize', { method: 'POST' });
    const expected = BUILTIN_VIEWS.map((v) => (v.id === 'channels' ? { ...v, isVisible: false } : v));
    expect(first).toEqual({ status: 200, body: { success: true, views: expected } });
    const seq = await sequence(m);
    const second = await m.call('/api/builtin-views/initialize', { method: 'POST' });
    expect(second.body).toEqual(first.body);
    expect(await sequence(m)).toBe(seq);
    expect(await builtins(m)).toEqual(expected);
  });
});

describe('all views', () => {
  it("mixes the page's built-ins and custom views by position; conversations by default", async () => {
    const m = await freshMember();
    const between = await create(m, { label: 'Between', position: 1 }); // ties with DMs (1): by label
    const last = await create(m, { label: 'Last' });
    const inbox = await create(m, { label: 'Mine', parentViewId: 'inbox', position: 0 });
    await m.call('/api/builtin-views/channels/visibility', { method: 'PATCH', body: { isVisible: false } });
    const res = await m.call<{ success: boolean; views: View[] }>('/api/all-views');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.views.map((v) => [v.id, v.isCustom, v.isVisible])).toEqual([
      ['conversations', false, true],
      [between.id, true, true],
      ['dms', false, true],
      ['channels', false, false],
      ['threads', false, true],
      [last.id, true, true],
    ]);
    expect(await allViews(m, '?parentViewId=conversations')).toEqual(res.body.views);
    expect(await allViews(m, '?parentViewId=inbox')).toEqual([BUILTIN_VIEWS[0], inbox]); // a tie at 0: by label
  });
});

describe('bad inputs answer 400 {error} and change nothing', () => {
  let m: Member;
  let view: CustomView;
  beforeAll(async () => {
    m = await freshMember();
    view = await create(m, { label: 'Existing', position: 3 });
  });

  const ok = body();
  const withRule = (r: unknown) => ({ ...ok, filters: [r] });
  const cases: Array<[string, string, string, { body?: unknown; raw?: string }]> = [
    ['POST', '/api/custom-views', 'not JSON', { raw: '{"label":' }],
    ['POST', '/api/custom-views', 'an array body', { body: [ok] }],
    ['POST', '/api/custom-views', 'a string body', { body: 'view' }],
    ['POST', '/api/custom-views', 'an empty body', { raw: '' }],
    ['POST', '/api/custom-views', 'no label', { body: { ...ok, label: undefined } }],
    ['POST', '/api/custom-views', 'an empty label', { body: { ...ok, label: '' } }],
    ['POST', '/api/custom-views', 'a blank label', { body: { ...ok, label: ' \t\n ' } }],
    ['POST', '/api/custom-views', 'an 81-character label', { body: { ...ok, label: 'x'.repeat(81) } }],
    ['POST', '/api/custom-views', 'a label that is a number', { body: { ...ok, label: 42 } }],
    ['POST', '/api/custom-views', 'no filters', { body: { ...ok, filters: undefined } }],
    ['POST', '/api/custom-views', 'filters that are an object', { body: { ...ok, filters: { rules: [] } } }],
    ['POST', '/api/custom-views', '51 rules', { body: { ...ok, filters: Array.from({ length: 51 }, () => rule('type', 'eq', 'dm')) } }],
    ['POST', '/api/custom-views', 'a rule that is a string', { body: withRule('type = dm') }],
    ['POST', '/api/custom-views', 'a rule that is null', { body: withRule(null) }],
    ['POST', '/api/custom-views', 'a rule without a field', { body: withRule({ operator: 'eq', value: 1 }) }],
    ['POST', '/api/custom-views', 'an empty field', { body: withRule(rule('', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field starting with a digit', { body: withRule(rule('1type', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field with two dots', { body: withRule(rule('a..b', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field ending in a dot', { body: withRule(rule('a.', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field with a space', { body: withRule(rule('a b', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field with a bracket', { body: withRule(rule('a[0]', 'eq', 1)) }],
    ['POST', '/api/custom-views', 'a field that is a number', { body: withRule({ field: 3, operator: 'eq', value: 1 }) }],
    ['POST', '/api/custom-views', 'an unknown operator', { body: withRule(rule('type', 'like', 'dm')) }],
    ['POST', '/api/custom-views', 'no operator', { body: withRule({ field: 'type', value: 'dm' }) }],
    ['POST', '/api/custom-views', 'eq without a value', { body: withRule(rule('type', 'eq')) }],
    ['POST', '/api/custom-views', 'in with a string', { body: withRule(rule('type', 'in', 'dm')) }],
    ['POST', '/api/custom-views', 'in without a value', { body: withRule(rule('type', 'in')) }],
    [
      'POST',
      '/api/custom-views',
      'in with 10,001 values',
      {
        body: withRule(
          rule(
            'id',
            'in',
            Array.from({ length: 10_001 }, (_, i) => i),
          ),
        ),
      },
    ],
    ['POST', '/api/custom-views', 'exists with a value', { body: withRule(rule('dm_user', 'exists', true)) }],
    ['POST', '/api/custom-views', 'not_exists with null', { body: withRule({ field: 'dm_user', operator: 'not_exists', value: null }) }],
    ['POST', '/api/custom-views', 'an unknown combinator', { body: { ...ok, combinator: 'xor' } }],
    ['POST', '/api/custom-views', 'no parentViewId', { body: { ...ok, parentViewId: undefined } }],
    ['POST', '/api/custom-views', 'an unknown page', { body: { ...ok, parentViewId: 'settings' } }],
    ['POST', '/api/custom-views', 'a built-in sub-view as the page', { body: { ...ok, parentViewId: 'dms' } }],
    ['POST', '/api/custom-views', 'a negative position', { body: { ...ok, position: -1 } }],
    ['POST', '/api/custom-views', 'a fractional position', { body: { ...ok, position: 1.5 } }],
    ['POST', '/api/custom-views', 'a position over 10,000', { body: { ...ok, position: 10_001 } }],
    ['POST', '/api/custom-views', 'a position that is a string', { body: { ...ok, position: '3' } }],
    ['POST', '/api/custom-views', 'isVisible that is a string', { body: { ...ok, isVisible: 'yes' } }],
    ['PUT', '/api/custom-views/:id', 'an empty body', { raw: '' }],
    ['PUT', '/api/custom-views/:id', 'no fields', { body: {} }],
    ['PUT', '/api/custom-views/:id', 'only unknown fields', { body: { id: 'cv_other', isCustom: false } }],
    ['PUT', '/api/custom-views/:id', 'not JSON', { raw: 'label=x' }],
    ['PUT', '/api/custom-views/:id', 'an empty label', { body: { label: '  ' } }],
    ['PUT', '/api/custom-views/:id', 'a label that is null', { body: { label: null } }],
    ['PUT', '/api/custom-views/:id', 'a bad rule', { body: { filters: [rule('type', 'matches', 'x')] } }],
    ['PUT', '/api/custom-views/:id', 'filters that are null', { body: { filters: null } }],
    ['PUT', '/api/custom-views/:id', 'an unknown page', { body: { parentViewId: 'nowhere' } }],
    ['PUT', '/api/custom-views/:id', 'a negative position', { body: { position: -5 } }],
    ['PUT', '/api/custom-views/:id', 'a valid field next to a bad one', { body: { label: 'Fine', isVisible: 'no' } }],
    ['PATCH', '/api/custom-views/:id/visibility', 'no isVisible', { body: {} }],
    ['PATCH', '/api/custom-views/:id/visibility', 'isVisible as a string', { body: { isVisible: 'false' } }],
    ['PATCH', '/api/custom-views/:id/visibility', 'isVisible null', { body: { isVisible: null } }],
    ['PATCH', '/api/builtin-views/dms/visibility', 'no isVisible', { body: {} }],
    ['PATCH', '/api/builtin-views/dms/visibility', 'isVisible as a number', { body: { isVisible: 0 } }],
    ['POST', '/api/custom-views/reorder', 'no positions', { body: {} }],
    ['POST', '/api/custom-views/reorder', 'an empty list', { body: { positions: [] } }],
    ['POST', '/api/custom-views/reorder', 'an empty map', { body: { positions: {} } }],
    ['POST', '/api/custom-views/reorder', 'positions that are a string', { body: { positions: 'a,b' } }],
    ['POST', '/api/custom-views/reorder', 'an entry without a position', { body: { positions: [{ id: ':id' }] } }],
    ['POST', '/api/custom-views/reorder', 'an entry without an id', { body: { positions: [{ position: 1 }] } }],
    ['POST', '/api/custom-views/reorder', 'a negative position', { body: { positions: [{ id: ':id', position: -1 }] } }],
    ['POST', '/api/custom-views/reorder', 'a position over 10,000', { body: { positions: { ':id': 10_001 } } }],
    ['POST', '/api/custom-views/reorder', 'a fractional position in a map', { body: { positions: { ':id': 0.5 } } }],
    [
      'POST',
      '/api/custom-views/reorder',
      'the same id twice',
      {
        body: {
          positions: [
            { id: ':id', position: 1 },
            { id: ':id', position: 2 },
          ],
        },
      },
    ],
    ['GET', '/api/custom-views?parentViewId=settings', 'an unknown page', {}],
    ['GET', '/api/all-views?parentViewId=dms', 'a built-in sub-view as the page', {}],
    ['GET', '/api/all-views?parentViewId=', 'an empty page', {}],
  ];

  it.each(cases)('%s %s: %s', async (method, path, _what, init) => {
    const snapshot = async () => ({ custom: await list(m), builtin: await builtins(m), sequence: await sequence(m) });
    const before = await snapshot();
    const fill = (s: string) => s.replaceAll(':id', view.id);
    const payload =
      init.raw !== undefined ? { raw: fill(init.raw) } : init.body !== undefined ? { body: JSON.parse(fill(JSON.stringify(init.body))) as unknown } : {};
    const res = await m.call(fill(path), { method, ...payload });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await snapshot()).toEqual(before);
  });
});

describe("one member and another's views", () => {
  it('cannot read, change, hide, delete or reorder them (404), and nothing changes', async () => {
    const owner = await freshMember();
    const intruder = await freshMember();
    const theirs = await create(owner, { label: 'Private', position: 2 });
    const mine = await create(intruder, { label: 'Mine', position: 4 });
    const ownerBefore = { custom: await list(owner), sequence: await sequence(owner) };
    const intruderBefore = await list(intruder);

    const attempts: Array<[string, string, { body?: unknown }]> = [
      ['GET', `/api/custom-views/${theirs.id}`, {}],
      ['PUT', `/api/custom-views/${theirs.id}`, { body: { label: 'Hijacked' } }],
      ['PUT', `/api/custom-views/${theirs.id}`, { body: { position: null } }],
      ['DELETE', `/api/custom-views/${theirs.id}`, {}],
      ['PATCH', `/api/custom-views/${theirs.id}/toggle-visibility`, {}],
      ['PATCH', `/api/custom-views/${theirs.id}/visibility`, { body: { isVisible: false } }],
      ['POST', '/api/custom-views/reorder', { body: { positions: [{ id: theirs.id, position: 0 }] } }],
      [
        'POST',
        '/api/custom-views/reorder',
        {
          body: {
            positions: [
              { id: mine.id, position: 9 },
              { id: theirs.id, position: 0 },
            ],
          },
        },
      ],
      ['POST', '/api/custom-views/reorder', { body: { positions: { [mine.id]: 9, [theirs.id]: 0 } } }],
    ];
    for (const [method, path, init] of attempts) {
      const res = await intruder.call(path, { method, ...init });
      expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 404, body: { error: expect.any(String) } });
    }

    expect({ custom: await list(owner), sequence: await sequence(owner) }).toEqual(ownerBefore);
    // The intruder's own view was not moved by the refused reorder either.
    expect(await list(intruder)).toEqual(intruderBefore);
    expect((await allViews(intruder)).some((v) => v.id === theirs.id)).toBe(false);
    expect((await list(owner)).map((v) => v.id)).toEqual([theirs.id]);
  });

  it('keeps views per workspace: the same account in its other workspace sees none of them', async () => {
    const { token } = await signIn(server.url);
    const call = api(server.url, token);
    const view = (await call<{ view: CustomView }>('/api/custom-views', { body: body({ label: 'Acme only' }) })).body.view;
    expect((await call('/auth/switch-workspace', { body: { workspaceId: DEMO_WORKSPACES[1]!.id } })).status).toBe(200);
    expect((await call('/api/custom-views')).body.views).toEqual([]);
    expect((await call(`/api/custom-views/${view.id}`)).status).toBe(404);
    expect((await call('/api/custom-views/reorder', { body: { positions: [{ id: view.id, position: 1 }] } })).status).toBe(404);
  });
});

describe('live view_update events', () => {
  it("reach the member's streams with every change, are in the log, and never reach another member", async () => {
    const m = await freshMember();
    const other = await freshMember();
    const start = await sequence(m);
    const stream = await openStream(server.url, m.token);
    const secondTab = await openStream(server.url, m.token);
    const otherStream = await openStream(server.url, other.token);
    await stream.until((e) => e.some((x) => x.type === 'connection'));
    await secondTab.until((e) => e.some((x) => x.type === 'connection'));
    await otherStream.until((e) => e.some((x) => x.type === 'connection'));

    const a = await create(m, { label: 'A' });
    const updated = (await m.call(`/api/custom-views/${a.id}`, { method: 'PUT', body: { label: 'A2' } })).body.view as CustomView;
    const hidden = (await m.call(`/api/custom-views/${a.id}/toggle-visibility`, { method: 'PATCH' })).body.view as CustomView;
    const shown = (await m.call(`/api/custom-views/${a.id}/visibility`, { method: 'PATCH', body: { isVisible: true } })).body.view as CustomView;
    const b = await create(m, { label: 'B', parentViewId: 'inbox' });
    await m.call('/api/custom-views/reorder', { body: { positions: [{ id: a.id, position: 1 }] } });
    const dms = (await m.call('/api/builtin-views/dms/toggle-visibility', { method: 'PATCH' })).body.view as BuiltinView;
    const threads = (await m.call('/api/builtin-views/threads/visibility', { method: 'PATCH', body: { isVisible: false } })).body.view as BuiltinView;
    await m.call('/api/builtin-views/initialize', { method: 'POST' });
    await m.call('/api/builtin-views/initialize', { method: 'POST' }); // no change, no event
    await m.call(`/api/custom-views/${b.id}`, { method: 'DELETE' });

    const builtinsAfter = BUILTIN_VIEWS.map((v) => (v.id === 'dms' || v.id === 'threads' ? { ...v, isVisible: false } : v));
    const reordered = { ...shown, position: 1, updatedAt: now };
    const expected: ViewUpdateData[] = [
      { action: 'upsert', view: a },
      { action: 'upsert', view: updated },
      { action: 'upsert', view: hidden },
      { action: 'upsert', view: shown },
      { action: 'upsert', view: b },
      { action: 'reset', views: [...BUILTIN_VIEWS, reordered, b] },
      { action: 'upsert', view: dms },
      { action: 'upsert', view: threads },
      { action: 'reset', views: [...builtinsAfter, reordered, b] },
      { action: 'delete', id: b.id },
    ];
    for (const tab of [stream, secondTab]) {
      const events = viewEvents(await tab.until((e) => viewEvents(e).length >= expected.length));
      expect(events.map((e) => e.data)).toEqual(expected);
      expect(events.map((e) => e.sequence)).toEqual(expected.map((_, i) => start + i + 1));
      expect(events.every((e) => e.isReplay === false)).toBe(true);
    }
    // Written to the log: a reconnect replays them.
    const replay = await openStream(server.url, m.token, start);
    const replayed = viewEvents(await replay.until((e) => e.some((x) => x.type === 'replay_complete')));
    expect(replayed.map((e) => e.data)).toEqual(expected);
    replay.close();

    // The other member sees only their own change.
    const own = await create(other, { label: 'Theirs' });
    const otherEvents = viewEvents(await otherStream.until((e) => viewEvents(e).length >= 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(otherStream.events.filter((e) => e.type !== 'connection').map((e) => e.data)).toEqual([{ action: 'upsert', view: own }]);
    expect(otherEvents).toHaveLength(1);
    expect(viewEvents(stream.events)).toHaveLength(expected.length);
    // Refused changes write no event.
    await m.call('/api/custom-views', { body: { label: '' } });
    await m.call('/api/custom-views/cv_nothing', { method: 'DELETE' });
    expect(await sequence(m)).toBe(start + expected.length);
    for (const s of [stream, secondTab, otherStream]) s.close();
  });
});

describe('a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sift-views-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every member's views, built-in settings and view events", async () => {
    const file = join(dir, 'sift.db');
    const first = await startTestServer({ file });
    const { token } = await signIn(first.url);
    let call = api(first.url, token);
    const start = (await call('/api/sse/stats')).body.currentSequence as number;
    const a = (await call<{ view: CustomView }>('/api/custom-views', { body: body({ label: 'A', combinator: 'or' }) })).body.view;
    const b = (await call<{ view: CustomView }>('/api/custom-views', { body: body({ label: 'B', parentViewId: 'inbox', isVisible: false }) })).body.view;
    await call(`/api/custom-views/${a.id}`, { method: 'PUT', body: { position: null } });
    await call('/api/builtin-views/channels/visibility', { method: 'PATCH', body: { isVisible: false } });
    const before = {
      custom: (await call('/api/custom-views')).body,
      one: (await call(`/api/custom-views/${b.id}`)).body,
      builtin: (await call('/api/builtin-views')).body,
      all: (await call('/api/all-views')).body,
      inbox: (await call('/api/all-views?parentViewId=inbox')).body,
    };
    expect(before.custom.views).toHaveLength(2);
    expect(before.builtin.views.find((v: BuiltinView) => v.id === 'channels').isVisible).toBe(false);
    await first.close();

    const second = await startTestServer({ file });
    call = api(second.url, token);
    expect({
      custom: (await call('/api/custom-views')).body,
      one: (await call(`/api/custom-views/${b.id}`)).body,
      builtin: (await call('/api/builtin-views')).body,
      all: (await call('/api/all-views')).body,
      inbox: (await call('/api/all-views?parentViewId=inbox')).body,
    }).toEqual(before);
    const replay = await openStream(second.url, token, start);
    const events = viewEvents(await replay.until((e) => e.some((x) => x.type === 'replay_complete')));
    expect(events.map((e) => (e.data as ViewUpdateData).action)).toEqual(['upsert', 'upsert', 'upsert', 'upsert']);
    replay.close();
    // Writes continue after the restart, with the next sequence.
    const c = await call<{ view: CustomView }>('/api/custom-views', { body: body({ label: 'C' }) });
    expect(c.body.view.position).toBe(6);
    expect((await call('/api/sse/stats')).body.currentSequence).toBe(start + 5);
    await second.close();
  });
});
