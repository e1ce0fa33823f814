/**
 * An action taken offline that the server refuses once it is sent (issue 14 §3): the engine rolls it
 * back and reports it; the shell says so in a toast, with a send's text (cut, as plain text) so the
 * member can write it again.
 */
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { SignedInRoutes } from '../../src/ui/App';
import { refusalText } from '../../src/ui/screens/Shell';
import type { Refusal } from '../../src/worker/engine/outbox';
import { USER_ME } from '../fixtures/events';
import { createFakeEngine, FakeStream } from './fakeEngine';
import { TestRouter } from './router';

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
});

describe('a refused offline action', () => {
  it.each([
    [{ kind: 'send', conversationId: 'C1', text: 'See you at 5', error: 'not_in_channel' }, 'Message not sent: not_in_channel (“See you at 5”)'],
    [{ kind: 'send', conversationId: 'C1', text: 'y'.repeat(100), error: 'too long' }, `Message not sent: too long (“${'y'.repeat(60)}…”)`],
    [{ kind: 'mark-read', conversationId: 'C1', error: 'channel_not_found' }, 'Mark as read made offline was refused and undone: channel_not_found'],
    [{ kind: 'category', conversationId: 'C1', error: 'Forbidden' }, 'The category change made offline was refused and undone: Forbidden'],
  ] as Array<[Refusal, string]>)('%j reads %s', (refusal, text) => {
    expect(refusalText(refusal)).toBe(text);
  });

  it('the shell shows it in a toast, as text', async () => {
    const fake = createFakeEngine({ views: [...BUILTIN_VIEWS] });
    const refusals = new FakeStream<Refusal>();
    Object.assign(fake.api, { outboxRefused: (o: never) => refusals.subscribe(o) });
    render(
      <TestRouter path="/inbox">
        <SignedInRoutes status={{ authenticated: true, user: USER_ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] }} onLogout={() => undefined} />
      </TestRouter>,
    );
    for (let i = 0; i < 3; i++) await settle();
    await act(async () => refusals.next({ kind: 'send', conversationId: 'C1', text: '<img src=x onerror=alert(1)>', error: 'not_in_channel' }));
    await settle();
    // The toast, and the page's announcer saying it.
    expect(screen.getAllByText('Message not sent: not_in_channel (“<img src=x onerror=alert(1)>”)').length).toBeGreaterThan(0);
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });
});
