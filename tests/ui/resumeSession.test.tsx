/**
 * A warm start opens as the member signed in last, from their local copy, while the server is asked who is
 * signed in (issue 14 §4): the inbox shows before the status answers; the answer confirms it, or sends the
 * page to sign-in; a failed answer leaves the member working from their copy. The sign-in page never shows
 * the last member's inbox first.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../src/model/types';
import { BUILTIN_VIEWS } from '../../src/model/views';
import { App } from '../../src/ui/App';
import { USER_ME } from '../fixtures/events';
import { createFakeEngine } from './fakeEngine';
import { TestRouter } from './router';

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
const STATUS: AuthStatus = { authenticated: true, user: USER_ME, workspace: { id: 'T1', name: 'Acme' }, organizations: [] };

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
});
afterEach(() => window.history.replaceState(null, '', '/'));

/** The app at `path`, the engine resuming the last member and the server's answer held until `answer` is called. */
async function open(path: string) {
  window.history.replaceState(null, '', path);
  const fake = createFakeEngine({ views: [...BUILTIN_VIEWS] });
  fake.streams.liveState.next({ status: 'connecting', attempt: 0 });
  fake.api.resumeLastSession.mockResolvedValue(STATUS);
  let answer!: { resolve: (status: AuthStatus) => void; reject: (error: Error) => void };
  fake.api.authStatus.mockReturnValue(new Promise<AuthStatus>((resolve, reject) => (answer = { resolve, reject })));
  render(
    <TestRouter path={path}>
      <App />
    </TestRouter>,
  );
  for (let i = 0; i < 4; i++) await settle();
  return { fake, answer };
}

const inboxShown = () => screen.queryByRole('tablist') !== null;
const signInShown = () => screen.queryByRole('heading', { name: 'Sign up to Sift' }) !== null;

describe('a warm start resumes the last member', () => {
  it('shows their inbox before the server answers, and keeps it when the answer confirms them', async () => {
    const { fake, answer } = await open('/inbox');
    expect(fake.api.resumeLastSession).toHaveBeenCalledTimes(1);
    expect(inboxShown()).toBe(true);
    await act(async () => answer.resolve(STATUS));
    await settle();
    expect(inboxShown()).toBe(true);
  });

  it('goes to sign-in when the server says nobody is signed in', async () => {
    const { answer } = await open('/inbox');
    expect(inboxShown()).toBe(true);
    await act(async () => answer.resolve({ authenticated: false, user: null, workspace: null, organizations: [] }));
    await settle();
    expect(signInShown()).toBe(true);
  });

  it('keeps the member working from their copy when the status cannot be had (no error screen)', async () => {
    const { answer } = await open('/inbox');
    await act(async () => answer.reject(new Error('HTTP 502')));
    await settle();
    expect(inboxShown()).toBe(true);
    expect(screen.queryByText('HTTP 502')).toBeNull();
  });

  it('on the sign-in page, asks the server and resumes nobody', async () => {
    const { fake, answer } = await open('/auth');
    expect(fake.api.resumeLastSession).not.toHaveBeenCalled();
    expect(inboxShown()).toBe(false);
    await act(async () => answer.resolve({ authenticated: false, user: null, workspace: null, organizations: [] }));
    await settle();
    expect(signInShown()).toBe(true);
  });
});
