/**
 * A link into a conversation, `/conversations?open=<id>&ts=<message ts>` (an AI answer's source),
 * with hostile values (issue 12: a quote in ts blanked the app, through a querySelector built from
 * it). The real routes, shell, list and conversation pane, against the stand-in engine.
 */
import { act, render, screen, within } from '@testing-library/react';
import { useEffect } from 'react';
import { TestRouter, useTestLocation } from './router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary, Message } from '../../src/model/types';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { SignedInRoutes } from '../../src/ui/App';
import { ConversationPane } from '../../src/ui/components/ConversationPane';
import type { ConversationDetail } from '../../src/worker/engine';
import { CHANNEL_ID, FAKE_NOW, USER_ALICE, USER_ME, slackTs } from '../fixtures/events';
import { createFakeEngine, FakeStream, summary } from './fakeEngine';

const M1: Message = { channel: CHANNEL_ID, user: USER_ALICE.id, ts: slackTs(FAKE_NOW - 60_000), text: 'The deploy is at noon' };
const M2: Message = { channel: CHANNEL_ID, user: USER_ALICE.id, ts: slackTs(FAKE_NOW - 30_000), text: 'Checklist is in the doc' };
const GENERAL: ConversationSummary = summary({
  id: CHANNEL_ID,
  name: 'general',
  member_ids: [USER_ME.id, USER_ALICE.id],
  latest_activity: Math.floor(FAKE_NOW / 1000),
});
const DETAIL: ConversationDetail = {
  id: CHANNEL_ID,
  status: 'loaded',
  conversation: GENERAL,
  participants: [USER_ME, USER_ALICE],
  members: { [USER_ME.id]: USER_ME, [USER_ALICE.id]: USER_ALICE },
  me: USER_ME.id,
  messages: [M1, M2],
};

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

let shownAddress = '';
function Address() {
  const location = useTestLocation();
  const address = location.pathname + location.search;
  useEffect(() => {
    shownAddress = address;
  }, [address]);
  return null;
}

async function openLink(address: string) {
  const fake = createFakeEngine({ conversations: [GENERAL], users: [USER_ME, USER_ALICE], me: USER_ME.id, views: [...BUILTIN_VIEWS] });
  Object.assign(fake.api, { search: (o: never) => new FakeStream().subscribe(o) });
  render(
    <TestRouter path={address}>
      <SignedInRoutes status={{ authenticated: true, user: USER_ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] }} onLogout={() => undefined} />
      <Address />
    </TestRouter>,
  );
  await settle();
  await settle();
  if (fake.conversation(CHANNEL_ID).subscribers > 0) await act(async () => fake.conversation(CHANNEL_ID).next(DETAIL));
  await settle();
  return fake;
}

const pane = () => screen.queryByRole('log');
const highlighted = () =>
  within(pane()!)
    .getAllByRole('article')
    .filter((a) => a.classList.contains('highlighted'))
    .map((a) => a.textContent);

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
  // happy-dom has no scrolling; the pane scrolls the highlighted message into view.
  Element.prototype.scrollIntoView ??= () => undefined;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('/conversations?open=…&ts=…', () => {
  it('opens the conversation at the message and cleans the address', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    await openLink(`/conversations?open=${CHANNEL_ID}&ts=${M1.ts}`);
    expect(pane()).not.toBeNull();
    expect(highlighted().some((t) => t?.includes(M1.text))).toBe(true);
    expect(scrolled.mock.contexts.some((el) => (el as Element).getAttribute('data-ts') === M1.ts)).toBe(true);
    expect(shownAddress).toBe('/conversations');
  });

  it.each([
    ['a quote and a bracket', `${M1.ts}"]`],
    ['a selector', `"], body, [x="`],
    ['not a ts', 'yesterday'],
    ['too long', '1'.repeat(40)],
  ])('a ts with %s is ignored: the conversation opens, nothing is highlighted, the app stays', async (_name, ts) => {
    await openLink(`/conversations?open=${CHANNEL_ID}&ts=${encodeURIComponent(ts)}`);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(pane()).not.toBeNull();
    expect(highlighted()).toEqual([]);
    expect(shownAddress).toBe('/conversations');
  });

  it.each([
    ['a quote', `${CHANNEL_ID}"]`],
    ['a path', '../../api/auth/logout'],
    ['too long', 'C'.repeat(300)],
  ])('an open id with %s is ignored: nothing opens, the list stays', async (_name, id) => {
    const fake = await openLink(`/conversations?open=${encodeURIComponent(id)}&ts=${M1.ts}`);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(pane()).toBeNull();
    expect(fake.api.facts).not.toHaveBeenCalledWith(id);
    expect(shownAddress).toBe('/conversations');
  });
});

describe('ConversationPane', () => {
  it('finds the message to highlight by its ts as a value, never as selector text', async () => {
    const fake = createFakeEngine({ conversations: [GENERAL], users: [USER_ME, USER_ALICE], me: USER_ME.id });
    const request = { id: CHANNEL_ID, highlightTs: `${M1.ts}"]`, nonce: 1 };
    render(
      <TestRouter>
        <ConversationPane id={CHANNEL_ID} request={request} onClose={() => undefined} now={FAKE_NOW} />
      </TestRouter>,
    );
    await settle();
    await act(async () => fake.conversation(CHANNEL_ID).next(DETAIL));
    await settle();
    expect(highlighted()).toEqual([]);
  });
});
