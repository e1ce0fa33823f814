/**
 * A session that ends while Sift is open (issue 14 §2): the engine, answered 401, signs out and
 * wipes the member's copy; the page hears it as the live state turning 'unauthenticated' and goes
 * back to sign-in. The live state before the first connection (also 'unauthenticated') is not that.
 */
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { App } from '../../src/ui/App';
import { USER_ME } from '../fixtures/events';
import { createFakeEngine } from './fakeEngine';
import { TestRouter } from './router';

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
});

async function signedIn(initial: 'connected' | 'unauthenticated') {
  const fake = createFakeEngine({ views: [...BUILTIN_VIEWS] });
  fake.streams.liveState.next({ status: initial, attempt: 0 });
  fake.api.authStatus.mockResolvedValue({ authenticated: true, user: USER_ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] });
  render(
    <TestRouter path="/inbox">
      <App />
    </TestRouter>,
  );
  for (let i = 0; i < 4; i++) await settle();
  return fake;
}

describe('the session ends while Sift is open', () => {
  it('the live state turning unauthenticated sends the page back to sign-in', async () => {
    const fake = await signedIn('connected');
    expect(screen.queryByRole('heading', { name: 'Sign up to Sift' })).toBeNull();
    await act(async () => fake.streams.liveState.next({ status: 'unauthenticated', attempt: 0 }));
    await settle();
    expect(screen.getByRole('heading', { name: 'Sign up to Sift' })).toBeTruthy();
  });

  it('the state before the first connection is not an ended session', async () => {
    await signedIn('unauthenticated');
    expect(screen.queryByRole('heading', { name: 'Sign up to Sift' })).toBeNull();
  });
});
