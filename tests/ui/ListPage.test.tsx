/**
 * The conversation list page (SPEC §2.4, §2.11, §4.5, §8 categories, §9 sort mode) on
 * happy-dom, against a stand-in engine whose list windows come from the real EngineStore.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TestRouter } from './router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Layout } from '../../src/model/layout';
import type { ConversationSummary } from '../../src/model/types';
import { ToastProvider } from '../../src/ui/components/Toasts';
import { ListPage } from '../../src/ui/screens/ListPage';
import { BUILTIN_VIEWS, type View } from '../../src/model/views';
import type { LoadState } from '../../src/worker/engine';
import { FAKE_NOW, USER_ALICE, USER_ME } from '../fixtures/events';
import { createFakeEngine, summary, type FakeEngineOptions } from './fakeEngine';

const NOW = FAKE_NOW;
const minutesAgo = (m: number) => Math.floor(NOW / 1000) - m * 60;

function unread(over: Partial<ConversationSummary> & { id: string }, count = 1): ConversationSummary {
  return summary({ unread_count: count, unread_count_display: count, ...over });
}

/** The inbox: 2 urgent, 1 can wait, 3 FYI, 1 not categorized; one read conversation outside it. */
const DEPLOY = unread(
  {
    id: 'C_DEPLOY',
    name: 'deploy-alerts',
    ai_category: 'urgent',
    latest_activity: minutesAgo(5),
    latest_message: { ts: '1.000001', text: 'Prod deploy failed on step 4' },
  },
  3,
);
const INCIDENT = unread({ id: 'C_INCIDENT', name: 'incident-42', ai_category: 'urgent', latest_activity: minutesAgo(10) });
const DESIGN = unread({ id: 'C_DESIGN', name: 'design-review', ai_category: 'can_wait', latest_activity: minutesAgo(20) }, 2);
const NEWS = unread({ id: 'C_NEWS', name: 'company-news', ai_category: 'fyi', latest_activity: minutesAgo(30) });
const LUNCH = unread({ id: 'C_LUNCH', name: 'lunch-plans', ai_category: 'fyi', latest_activity: minutesAgo(3) });
const RANDOM = unread({ id: 'C_RANDOM', name: 'random', ai_category: 'fyi', latest_activity: minutesAgo(50) });
const ALICE_DM = unread({
  id: 'D_ALICE',
  name: 'dm-alice',
  type: 'dm',
  dm_user: USER_ALICE.id,
  member_ids: [USER_ME.id, USER_ALICE.id],
  latest_activity: minutesAgo(60),
});
const ARCHIVE = summary({ id: 'C_ARCHIVE', name: 'archive', ai_category: 'urgent', latest_activity: minutesAgo(1) });
const INBOX = [DEPLOY, INCIDENT, DESIGN, NEWS, LUNCH, RANDOM, ALICE_DM, ARCHIVE];

const INBOX_VIEW: View[] = BUILTIN_VIEWS.filter((v) => v.parentViewId === 'inbox');

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function renderPage(options: FakeEngineOptions = {}, views: View[] = INBOX_VIEW) {
  const fake = createFakeEngine({ conversations: INBOX, users: [USER_ME, USER_ALICE], me: USER_ME.id, views, ...options });
  const events = userEvent.setup();
  render(
    <TestRouter>
      <ToastProvider>
        <ListPage page="inbox" menuButton={null} now={NOW} />
      </ToastProvider>
    </TestRouter>,
  );
  return { fake, events };
}

async function renderSettled(options: FakeEngineOptions = {}, views?: View[]) {
  const page = renderPage(options, views);
  await settle();
  await settle();
  return page;
}

const list = () => screen.getByRole('listbox', { name: 'Inbox' });
/** A group's header: a real button (outside the listbox, which may own only options and groups) named by its words. */
const HEADER_NAME = /^(Urgent|Can Wait|FYI|Not Categorized)\s+\d+\s+conversations?$/;
const headerOf = (label: string) => screen.getByRole('button', { name: new RegExp(`^${label}\\s+\\d+\\s+conversations?$`) });
const headers = () => screen.queryAllByRole('button', { name: HEADER_NAME });
const rows = () => within(list()).queryAllByRole('option');
const row = (name: string | RegExp) => within(list()).getByRole('option', { name });
const toasts = () => screen.getByRole('region', { name: 'Notifications' });
/** The layout of the engine's newest window request. */
const lastLayout = (fake: ReturnType<typeof createFakeEngine>): Layout => fake.api.setWindow.mock.lastCall![4]!.layout!;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // happy-dom lays nothing out: give the list's scroll box a height, as a browser would, so the virtualizer shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
});

describe('ListPage loading and error screens (SPEC §2.4, §8)', () => {
  it("says 'Loading conversations...' while nothing is loaded, without a count until the total is known", async () => {
    const { fake } = await renderSettled({ load: { status: 'loading', loaded: 0, total: 0 } });
    expect(screen.getByText('Loading conversations...')).toBeTruthy();
    expect(screen.queryByText(/ of /)).toBeNull();
    expect(screen.queryByRole('listbox')).toBeNull();

    await act(async () => fake.streams.loadState.next({ status: 'loading', loaded: 0, total: 250 }));
    expect(screen.getByText('Loading conversations...')).toBeTruthy();
    expect(screen.getByText('0 of 250')).toBeTruthy();

    await act(async () => fake.streams.loadState.next({ status: 'loaded', loaded: 8, total: 8 }));
    await settle();
    expect(screen.queryByText('Loading conversations...')).toBeNull();
    expect(screen.queryByText('0 of 250')).toBeNull();
    expect(list()).toBeTruthy();
  });

  it('keeps showing the list during a reload once something is loaded', async () => {
    await renderSettled({ load: { status: 'loading', loaded: 8, total: 8 } });
    expect(screen.queryByText('Loading conversations...')).toBeNull();
    expect(row(/deploy-alerts/)).toBeTruthy();
  });

  it('shows the Error screen with the message, and Retry asks the engine to reload', async () => {
    const failed: LoadState = { status: 'error', loaded: 0, total: 0, error: { isNetworkError: true, status: 0, message: 'Network request failed' } };
    const { fake, events } = await renderSettled({ load: failed });
    expect(screen.getByText('Failed to load conversations')).toBeTruthy();
    expect(screen.getByText('Network request failed')).toBeTruthy();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText('Loading conversations...')).toBeNull();
    expect(fake.api.reload).not.toHaveBeenCalled();

    await events.click(screen.getByRole('button', { name: 'Retry' }));
    expect(fake.api.reload).toHaveBeenCalledTimes(1);

    await act(async () => fake.streams.loadState.next({ status: 'loaded', loaded: 8, total: 8 }));
    await settle();
    expect(screen.queryByText('Failed to load conversations')).toBeNull();
    expect(row(/deploy-alerts/)).toBeTruthy();
  });
});

describe('ListPage Inbox Zero (SPEC §2.4)', () => {
  const allRead = [ARCHIVE, summary({ id: 'C_OLD', name: 'old-news', latest_activity: minutesAgo(90) })];

  it('celebrates when the view is loaded and empty', async () => {
    await renderSettled({ conversations: allRead });
    expect(screen.getByRole('heading', { name: "You've hit Inbox Zero!" })).toBeTruthy();
    expect(screen.getByText('Time to enjoy the view...')).toBeTruthy();
    // The list stays mounted but hidden.
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('does not celebrate while the list is still loading', async () => {
    await renderSettled({ conversations: allRead, load: { status: 'loading', loaded: 2, total: 40 } });
    expect(screen.queryByRole('heading', { name: "You've hit Inbox Zero!" })).toBeNull();
  });

  it('does not celebrate while the view has conversations', async () => {
    await renderSettled();
    expect(screen.queryByRole('heading', { name: "You've hit Inbox Zero!" })).toBeNull();
    expect(list()).toBeTruthy();
  });

  it('gives way to "No conversations match" once filter text is typed (Shift+K opens the filter)', async () => {
    localStorage.setItem('sift_sort_mode:inbox', 'time');
    const { events } = await renderSettled({ conversations: allRead });
    expect(screen.getByRole('heading', { name: "You've hit Inbox Zero!" })).toBeTruthy();
    expect(screen.queryByRole('searchbox', { name: 'Filter this view' })).toBeNull();

    await events.keyboard('{Shift>}K{/Shift}');
    const filter = screen.getByRole('searchbox', { name: 'Filter this view' });
    expect(document.activeElement).toBe(filter);
    await events.keyboard('zzz');
    await settle();

    expect(screen.queryByRole('heading', { name: "You've hit Inbox Zero!" })).toBeNull();
    expect(screen.getByText('No conversations match “zzz”')).toBeTruthy();
  });

  it('filters the list by the typed text, and says when nothing matches', async () => {
    localStorage.setItem('sift_sort_mode:inbox', 'time');
    const { events } = await renderSettled();
    expect(rows()).toHaveLength(7);

    await events.keyboard('{Shift>}K{/Shift}');
    await events.keyboard('DEPLOY');
    await settle();
    expect(rows()).toHaveLength(1);
    expect(row(/deploy-alerts/)).toBeTruthy();
    expect(screen.queryByText(/No conversations match/)).toBeNull();

    await events.clear(screen.getByRole('searchbox', { name: 'Filter this view' }));
    await events.keyboard('nothing like this');
    await settle();
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No conversations match “nothing like this”')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: "You've hit Inbox Zero!" })).toBeNull();
  });

  // BUG (src/ui/screens/ListPage.tsx): the "No conversations match" line tests `total === 0`, but
  // on /inbox in AI order `total` counts the four group header slots, so it is never 0 there and
  // a filter that matches nothing shows four empty headers and no message. Remove `.fails` once fixed.
  it('says "No conversations match" on the grouped inbox (AI order) too', async () => {
    const { events } = await renderSettled();
    await events.keyboard('{Shift>}K{/Shift}');
    await events.keyboard('nothing like this');
    await settle();
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No conversations match “nothing like this”')).toBeTruthy();
  });
});

describe('ListPage inbox grouping (SPEC §2.4)', () => {
  it('shows Urgent, Can Wait, FYI and Not Categorized with their counts; only Urgent starts expanded', async () => {
    await renderSettled();
    expect(headers().map((h) => h.querySelector('.group-label')?.textContent)).toEqual(['Urgent', 'Can Wait', 'FYI', 'Not Categorized']);
    const expected = [
      ['Urgent', '2', 'true'],
      ['Can Wait', '1', 'false'],
      ['FYI', '3', 'false'],
      ['Not Categorized', '1', 'false'],
    ] as const;
    for (const [label, count, expanded] of expected) {
      const header = headerOf(label);
      expect(within(header).getByText(count)).toBeTruthy();
      expect(header.getAttribute('aria-expanded')).toBe(expanded);
    }
    // Urgent's rows show, newest first; the collapsed groups' rows do not; a read conversation is not in the inbox.
    expect(rows().map((r) => r.getAttribute('data-conversation-id'))).toEqual(['C_DEPLOY', 'C_INCIDENT']);
    expect(screen.queryByRole('option', { name: /archive/ })).toBeNull();
  });

  it('asks the engine for the AI order with headers and the default collapsed groups', async () => {
    const { fake } = await renderSettled();
    expect(fake.api.setWindow).toHaveBeenCalled();
    const [key, viewId, start, end, options] = fake.api.setWindow.mock.lastCall!;
    expect(typeof key).toBe('string');
    expect([viewId, start]).toEqual(['inbox', 0]);
    expect(end).toBeGreaterThan(start);
    expect(options).toEqual({ layout: { order: 'ai', headers: true, collapsed: ['can_wait', 'fyi', 'none'], query: '' }, previewLength: 120 });
  });

  it('a click on a header asks for a window with that group toggled in layout.collapsed, and aria-expanded follows', async () => {
    const { fake, events } = await renderSettled();
    const calls = fake.api.setWindow.mock.calls.length;

    await events.click(headerOf('Can Wait'));
    await settle();
    expect(fake.api.setWindow.mock.calls.length).toBeGreaterThan(calls);
    const [, viewId, start, , options] = fake.api.setWindow.mock.lastCall!;
    expect([viewId, start]).toEqual(['inbox', 0]);
    expect(options?.layout).toEqual({ order: 'ai', headers: true, collapsed: ['fyi', 'none'], query: '' });
    expect(headerOf('Can Wait').getAttribute('aria-expanded')).toBe('true');
    expect(row(/design-review/)).toBeTruthy();

    await events.click(headerOf('Urgent'));
    await settle();
    expect(lastLayout(fake).collapsed).toEqual(['fyi', 'none', 'urgent']);
    expect(headerOf('Urgent').getAttribute('aria-expanded')).toBe('false');
    expect(rows().map((r) => r.getAttribute('data-conversation-id'))).toEqual(['C_DESIGN']);

    await events.click(headerOf('Can Wait'));
    await settle();
    expect(lastLayout(fake).collapsed).toEqual(['fyi', 'none', 'urgent', 'can_wait']);
    expect(headerOf('Can Wait').getAttribute('aria-expanded')).toBe('false');
    expect(rows()).toHaveLength(0);
  });

  it('is a valid grouped listbox (issue 13 §3): a group per category labelled by its header, options only inside, the collapse control a button outside', async () => {
    const { events } = await renderSettled();
    await events.click(headerOf('FYI'));
    await settle();
    // The listbox owns only groups, and each group only options (and its header's words, which are no control).
    const groups = within(list()).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent)).toEqual([
      'Urgent',
      'Can Wait',
      'FYI',
      'Not Categorized',
    ]);
    expect(groups.map((g) => within(g).queryAllByRole('option').length)).toEqual([2, 0, 3, 0]);
    expect(within(list()).queryAllByRole('button')).toHaveLength(0);
    for (const option of within(list()).getAllByRole('option')) expect(option.hasAttribute('aria-expanded')).toBe(false);
    // Each header is a button whose name starts with its visible words; its state is aria-expanded, and it controls its group.
    const fyi = headerOf('FYI');
    expect(list().contains(fyi)).toBe(false);
    expect(fyi.textContent).toMatch(/^▾FYI 3 conversations$/);
    expect(fyi.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(fyi.getAttribute('aria-controls')!)).toBe(groups[2]);
    expect(headerOf('Can Wait').getAttribute('aria-expanded')).toBe('false');
    // Positions count within the group.
    expect(
      within(groups[2]!)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('aria-posinset'), o.getAttribute('aria-setsize')]),
    ).toEqual([
      ['1', '3'],
      ['2', '3'],
      ['3', '3'],
    ]);
  });

  it('the cursor on a header reads its words and state through aria-activedescendant', async () => {
    const { events } = await renderSettled();
    await events.hover(headerOf('Can Wait'));
    const active = document.getElementById(list().getAttribute('aria-activedescendant')!)!;
    expect(list().contains(active)).toBe(true);
    expect(active.textContent).toBe('Can Wait, 1 conversation, collapsed');
  });

  it('with nothing urgent, the first group that has conversations starts expanded instead', async () => {
    const { fake } = await renderSettled({ conversations: [DESIGN, NEWS, ALICE_DM] });
    expect(headerOf('Urgent').getAttribute('aria-expanded')).toBe('true');
    expect(within(headerOf('Urgent')).getByText('0')).toBeTruthy();
    expect(headerOf('Can Wait').getAttribute('aria-expanded')).toBe('true');
    expect(headerOf('FYI').getAttribute('aria-expanded')).toBe('false');
    expect(lastLayout(fake).collapsed).toEqual(['fyi', 'none']);
    expect(row(/design-review/)).toBeTruthy();
  });
});

describe('ListPage sort toggle (SPEC §2.4, §9)', () => {
  it("reads 'Sort by Time' in the default AI order; a click switches to time order, stores it for the page and asks the engine for it", async () => {
    const { fake, events } = await renderSettled();
    expect(lastLayout(fake).order).toBe('ai');
    expect(screen.queryByRole('button', { name: 'Sort by AI' })).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Sort by Time' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Sort by AI' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sort by Time' })).toBeNull();
    expect(localStorage.getItem('sift_sort_mode:inbox')).toBe('time');
    expect(lastLayout(fake).order).toBe('time');
    // Time order is flat: no headers, every inbox conversation newest first.
    expect(headers()).toHaveLength(0);
    expect(rows().map((r) => r.getAttribute('data-conversation-id'))).toEqual([
      'C_LUNCH',
      'C_DEPLOY',
      'C_INCIDENT',
      'C_DESIGN',
      'C_NEWS',
      'C_RANDOM',
      'D_ALICE',
    ]);

    await events.click(screen.getByRole('button', { name: 'Sort by AI' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Sort by Time' })).toBeTruthy();
    expect(localStorage.getItem('sift_sort_mode:inbox')).toBe('ai');
    expect(lastLayout(fake).order).toBe('ai');
    expect(headers()).toHaveLength(4);
  });

  it("starts from the page's stored mode, and ignores other pages' modes", async () => {
    localStorage.setItem('sift_sort_mode:inbox', 'time');
    localStorage.setItem('sift_sort_mode:conversations', 'ai');
    const { fake } = await renderSettled();
    expect(screen.getByRole('button', { name: 'Sort by AI' })).toBeTruthy();
    for (const call of fake.api.setWindow.mock.calls) expect(call[4]?.layout?.order).toBe('time');
  });

  it('is AI order when only another page stored time', async () => {
    localStorage.setItem('sift_sort_mode:conversations', 'time');
    const { fake } = await renderSettled();
    expect(screen.getByRole('button', { name: 'Sort by Time' })).toBeTruthy();
    expect(lastLayout(fake).order).toBe('ai');
  });
});

describe('ListPage Fetch data (SPEC §2.4, §8)', () => {
  function deferred<T>() {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  }

  it('calls refresh, and is disabled while it runs', async () => {
    const { fake, events } = await renderSettled();
    const answer = deferred<string | null>();
    fake.api.refresh.mockImplementationOnce(() => answer.promise);
    const button = screen.getByRole('button', { name: 'Fetch data' });
    expect(button.hasAttribute('disabled')).toBe(false);

    await events.click(button);
    expect(fake.api.refresh).toHaveBeenCalledTimes(1);
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.textContent).toBe('Fetching...');
    await events.click(button);
    expect(fake.api.refresh).toHaveBeenCalledTimes(1);

    await act(async () => answer.resolve(null));
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.textContent).toBe('Fetch data');
    expect(toasts().textContent).toBe('');
  });

  it('shows the error text the refresh answers as a toast', async () => {
    const { fake, events } = await renderSettled();
    fake.api.refresh.mockResolvedValueOnce('Failed to refresh data. Please check your connection.');
    await events.click(screen.getByRole('button', { name: 'Fetch data' }));
    await settle();
    expect(within(toasts()).getByText('Failed to refresh data. Please check your connection.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fetch data' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('ListPage category keys (SPEC §2.11, §4.5, §8 categories)', () => {
  /** Expands Not Categorized and makes the dm with Alice the active row by pointing at it. */
  async function activateAliceDm() {
    const page = await renderSettled();
    await page.events.click(headerOf('Not Categorized'));
    await settle();
    const dm = row(/Alice Adams/);
    await page.events.hover(dm);
    expect(list().getAttribute('aria-activedescendant')).toBe('row-D_ALICE');
    return page;
  }

  it.each([
    ['1', 'urgent', 'Alice Adams marked as Urgent'],
    ['2', 'can_wait', 'Alice Adams marked as Can Wait'],
    ['3', 'fyi', 'Alice Adams marked as FYI'],
  ] as const)('Ctrl+%s on the active row sets %s and says so', async (key, category, text) => {
    const { fake, events } = await activateAliceDm();
    await events.keyboard(`{Control>}${key}{/Control}`);
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledTimes(1);
    expect(fake.api.setCategory).toHaveBeenCalledWith('D_ALICE', category);
    expect(within(toasts()).getByText(text)).toBeTruthy();
  });

  it('Cmd works as Ctrl does', async () => {
    const { fake, events } = await activateAliceDm();
    await events.keyboard('{Meta>}1{/Meta}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledWith('D_ALICE', 'urgent');
  });

  it("a refused change says 'Failed to update category' and leaves nothing to undo", async () => {
    const { fake, events } = await activateAliceDm();
    fake.api.setCategory.mockResolvedValueOnce(false);
    await events.keyboard('{Control>}1{/Control}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledWith('D_ALICE', 'urgent');
    expect(within(toasts()).getByText('Failed to update category')).toBeTruthy();
    expect(within(toasts()).queryByText(/marked as/)).toBeNull();

    await events.keyboard('{Control>}z{/Control}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledTimes(1);
    expect(within(toasts()).queryByText('Undone')).toBeNull();
  });

  it('Ctrl+0 removes the category; Ctrl+Z puts the previous one back and says Undone', async () => {
    const { fake, events } = await renderSettled();
    await events.hover(row(/deploy-alerts/));
    expect(list().getAttribute('aria-activedescendant')).toBe('row-C_DEPLOY');

    await events.keyboard('{Control>}0{/Control}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenLastCalledWith('C_DEPLOY', null);
    expect(within(toasts()).getByText('Removed category from deploy-alerts')).toBeTruthy();
    expect(within(headerOf('Not Categorized')).getByText('2')).toBeTruthy();
    expect(within(toasts()).queryByText('Undone')).toBeNull();

    await events.keyboard('{Control>}z{/Control}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledTimes(2);
    expect(fake.api.setCategory).toHaveBeenLastCalledWith('C_DEPLOY', 'urgent');
    expect(within(toasts()).getByText('Undone')).toBeTruthy();
    expect(within(headerOf('Urgent')).getByText('2')).toBeTruthy();

    // The undo is used up.
    await events.keyboard('{Control>}z{/Control}');
    await settle();
    expect(fake.api.setCategory).toHaveBeenCalledTimes(2);
  });

  it('Ctrl+Z after setting a category on an uncategorized row removes it again', async () => {
    const { fake, events } = await activateAliceDm();
    await events.keyboard('{Control>}3{/Control}');
    await settle();
    await events.keyboard('{Control>}z{/Control}');
    await settle();
    expect(fake.api.setCategory.mock.calls).toEqual([
      ['D_ALICE', 'fyi'],
      ['D_ALICE', null],
    ]);
    expect(within(toasts()).getByText('Undone')).toBeTruthy();
  });

  it('does nothing on a group header', async () => {
    const { fake, events } = await renderSettled();
    await events.hover(headerOf('Urgent'));
    expect(list().getAttribute('aria-activedescendant')).toBe('group-urgent');
    await events.keyboard('{Control>}1{/Control}');
    await settle();
    expect(fake.api.setCategory).not.toHaveBeenCalled();
    expect(toasts().textContent).toBe('');
  });
});

describe('ListPage tabs (SPEC §2.4)', () => {
  it('each tab shows its unread count from the engine', async () => {
    // The inbox page's built-in view and a focus inbox of DMs on the same page.
    const views: View[] = [
      ...INBOX_VIEW,
      {
        id: 'dms',
        label: 'DMs',
        parentViewId: 'inbox',
        position: 1,
        isVisible: true,
        isCustom: true,
        created_by: 'user',
        filters: [{ field: 'type', operator: 'in', value: ['dm'] }],
      },
    ];
    const { fake } = await renderSettled({ viewCounts: { total: { inbox: 9, dms: 4 }, unread: { inbox: 7, dms: 2 } } }, views);
    const inbox = screen.getByRole('tab', { name: /Inbox/ });
    const dms = screen.getByRole('tab', { name: /DMs/ });
    expect(inbox.getAttribute('aria-selected')).toBe('true');
    expect(within(inbox).getByLabelText('7 unread').textContent).toBe('7');
    expect(within(dms).getByLabelText('2 unread').textContent).toBe('2');

    await act(async () => fake.streams.viewCounts.next({ total: { inbox: 9 }, unread: { inbox: 12 } }));
    expect(within(inbox).getByLabelText('12 unread').textContent).toBe('12');
    expect(within(dms).getByLabelText('0 unread').textContent).toBe('0');
  });

  it('the inbox badge counts the unread conversations the engine holds', async () => {
    await renderSettled();
    expect(within(screen.getByRole('tab', { name: /Inbox/ })).getByLabelText('7 unread').textContent).toBe('7');
  });
});
