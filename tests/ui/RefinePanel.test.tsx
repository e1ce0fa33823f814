/**
 * The composer's refinement toolbar and Original / Suggested view (SPEC §2.6, §4.7, §8
 * 'Sending and refining') on happy-dom, with the fake engine's refine streams.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { REFINE_MODES, REFINE_MODE_LABELS } from '../../src/model/ai';
import { ANNOUNCE_GAP_MS, AnnouncerProvider } from '../../src/ui/components/Announcer';
import { RefinePanel } from '../../src/ui/components/RefinePanel';
import { createFakeEngine } from './fakeEngine';

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** The panel over a message box whose text lives in state, as in the conversation's composer. */
function Composer({ initial }: { initial: string }) {
  const [draft, setDraft] = useState(initial);
  const box = useRef<HTMLTextAreaElement>(null);
  return (
    <>
      <input type="search" aria-label="Other field" />
      <RefinePanel text={draft} input={box} onApply={setDraft} />
      <textarea ref={box} aria-label="Message" value={draft} onChange={(e) => setDraft(e.target.value)} />
    </>
  );
}

function setup(initial = 'hey can u look at the deploy') {
  const fake = createFakeEngine();
  const user = userEvent.setup();
  render(<Composer initial={initial} />);
  return { fake, user };
}

const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
const toolbar = () => screen.getByRole('toolbar', { name: 'Refine message' });
const modeButton = (label: string) => within(toolbar()).getByRole<HTMLButtonElement>('button', { name: label });
const view = () => screen.queryByRole('region', { name: 'Refined message' });
const suggested = () => within(view()!).getByRole('region', { name: /Suggested/ });
const original = () => within(view()!).getByRole('region', { name: 'Original' });
const apply = () => within(view()!).getByRole<HTMLButtonElement>('button', { name: 'Apply' });
const cancel = () => within(view()!).getByRole<HTMLButtonElement>('button', { name: 'Cancel' });

async function startPolish(user: ReturnType<typeof userEvent.setup>) {
  await user.click(modeButton('Polish'));
  await settle();
}

describe('RefinePanel toolbar (SPEC §2.6)', () => {
  it('has Polish, Shorter, Simplify, Professional and List, disabled while the box is empty or blank', async () => {
    const { user } = setup('');
    const labels = within(toolbar())
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(labels).toEqual(['Polish', 'Shorter', 'Simplify', 'Professional', 'List']);
    for (const label of labels) expect(modeButton(label!).disabled).toBe(true);

    await user.type(box(), '   ');
    expect(modeButton('Polish').disabled).toBe(true);
    await user.type(box(), 'ok');
    for (const label of labels) expect(modeButton(label!).disabled).toBe(false);
    expect(view()).toBeNull();
  });

  it.each(REFINE_MODES.map((mode) => [REFINE_MODE_LABELS[mode], mode] as const))('%s asks the engine to refine the text in mode %s', async (label, mode) => {
    const { fake, user } = setup('see you tmrw');
    await user.click(modeButton(label));
    await settle();
    expect(fake.refines).toHaveLength(1);
    expect(fake.refines[0]).toMatchObject({ text: 'see you tmrw', mode });
    expect(within(suggested()).getByText(label)).toBeTruthy();
  });

  it('Alt+1..5 in the message box start the modes in toolbar order', async () => {
    const { fake, user } = setup('see you tmrw');
    await user.click(box());
    await user.keyboard('{Alt>}3{/Alt}');
    await settle();
    expect(fake.refines.map((r) => r.mode)).toEqual(['simplify']);
    expect(box().value).toBe('see you tmrw');
    await user.click(cancel());
    await user.click(box());
    await user.keyboard('{Alt>}5{/Alt}');
    await settle();
    expect(fake.refines.map((r) => r.mode)).toEqual(['simplify', 'list']);
  });

  it('Alt+digit elsewhere does nothing', async () => {
    const { fake, user } = setup('see you tmrw');
    await user.click(screen.getByRole('searchbox', { name: 'Other field' }));
    await user.keyboard('{Alt>}1{/Alt}');
    await settle();
    expect(fake.refines).toHaveLength(0);
  });
});

describe('RefinePanel view (SPEC §4.7)', () => {
  it("streams: Original and 'Generating...', chunks in Suggested, done ends generating, Apply fills the box", async () => {
    const { fake, user } = setup();
    await startPolish(user);
    expect(within(original()).getByText('hey can u look at the deploy')).toBeTruthy();
    expect(within(suggested()).getByText('Generating...')).toBeTruthy();
    // Busy: the modes and Apply wait; Cancel does not.
    for (const label of Object.values(REFINE_MODE_LABELS)) expect(modeButton(label).disabled).toBe(true);
    expect(apply().disabled).toBe(true);
    expect(cancel().disabled).toBe(false);

    const { stream } = fake.refines[0]!;
    await act(async () => stream.next({ chunk: 'Hey, could you ' }));
    await act(async () => stream.next({ chunk: 'look at the deploy?' }));
    expect(suggested().textContent).toContain('Hey, could you look at the deploy?');
    expect(within(suggested()).getByText('Generating...')).toBeTruthy();

    await act(async () => stream.next({ done: true, text: 'Hey, could you take a look at the deploy?' }));
    expect(within(suggested()).queryByText('Generating...')).toBeNull();
    expect(suggested().textContent).toContain('Hey, could you take a look at the deploy?');
    expect(apply().disabled).toBe(false);
    expect(modeButton('Shorter').disabled).toBe(false);
    expect(box().value).toBe('hey can u look at the deploy');

    await user.click(apply());
    expect(view()).toBeNull();
    expect(box().value).toBe('Hey, could you take a look at the deploy?');
    expect(document.activeElement).toBe(box());
    expect(box().selectionStart).toBe(box().value.length);
    await settle();
    expect(stream.subscribers).toBe(0);
    expect(stream.released).toBe(1);
  });

  it('Cancel discards the suggestion and releases the stream (cancelling the request)', async () => {
    const { fake, user } = setup();
    await startPolish(user);
    const { stream } = fake.refines[0]!;
    await act(async () => stream.next({ chunk: 'Hey' }));
    await user.click(cancel());
    expect(view()).toBeNull();
    expect(box().value).toBe('hey can u look at the deploy');
    await settle();
    expect(stream.subscribers).toBe(0);
    expect(stream.released).toBe(1);
    // Nothing shows up afterwards.
    await act(async () => stream.next({ done: true, text: 'late' }));
    expect(view()).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Esc discards it too, and the page behind never sees that Esc', async () => {
    const { fake, user } = setup();
    await startPolish(user);
    const { stream } = fake.refines[0]!;
    const onWindowKey = vi.fn();
    window.addEventListener('keydown', onWindowKey);
    try {
      await user.click(box());
      await user.keyboard('{Escape}');
      expect(view()).toBeNull();
      expect(onWindowKey).not.toHaveBeenCalled();
      await settle();
      expect(stream.released).toBe(1);
      expect(box().value).toBe('hey can u look at the deploy');

      // With the view closed, Esc is the page's again.
      await user.keyboard('{Escape}');
      expect(onWindowKey).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('keydown', onWindowKey);
    }
  });

  it('Esc from the document body (focus lost) also discards it; another field keeps its own Esc', async () => {
    const { user } = setup();
    await startPolish(user);
    await user.click(screen.getByRole('searchbox', { name: 'Other field' }));
    await user.keyboard('{Escape}');
    expect(view()).not.toBeNull();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(view()).toBeNull();
  });

  it("an {error} event closes the view and shows 'Error refining message: {reason}' with Dismiss", async () => {
    const { fake, user } = setup();
    await startPolish(user);
    const { stream } = fake.refines[0]!;
    await act(async () => stream.next({ chunk: 'Hey' }));
    await act(async () => stream.next({ error: 'Rate limit reached' }));
    expect(view()).toBeNull();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Error refining message: Rate limit reached');
    expect(box().value).toBe('hey can u look at the deploy');
    await settle();
    expect(stream.released).toBe(1);

    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("an error without a reason says 'Failed to refine message'; a new refinement clears the alert", async () => {
    const { fake, user } = setup();
    await startPolish(user);
    await act(async () => fake.refines[0]!.stream.next({ error: '' }));
    expect(screen.getByRole('alert').textContent).toContain('Error refining message: Failed to refine message');
    await user.click(modeButton('List'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(view()).not.toBeNull();
  });

  it('Apply puts the caret at the end even when the text does not change', async () => {
    const { fake, user } = setup('All good.');
    await startPolish(user);
    await act(async () => fake.refines[0]!.stream.next({ done: true, text: 'All good.' }));
    box().setSelectionRange(0, 0);
    await user.click(apply());
    expect(document.activeElement).toBe(box());
    expect(box().selectionStart).toBe('All good.'.length);
  });

  it('a stream that ends without done or error counts as a failure', async () => {
    const { fake, user } = setup();
    let observer: Parameters<typeof fake.api.refine>[2] | undefined;
    const refine = fake.api.refine;
    fake.api.refine = (text, mode, o) => {
      observer = o;
      return refine(text, mode, o);
    };
    await startPolish(user);
    await act(async () => fake.refines[0]!.stream.next({ chunk: 'Hey' }));
    await act(async () => observer!.complete());
    expect(view()).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Error refining message: Failed to refine message');
  });

  it('a stream that fails in transport shows its message', async () => {
    const { fake, user } = setup();
    await startPolish(user);
    await act(async () => fake.refines[0]!.stream.error({ name: 'Error', message: 'Network down' }));
    expect(view()).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Error refining message: Network down');
  });
});

describe('RefinePanel and the announcer (issue 13 §3)', () => {
  it('says when a refinement starts and then the suggestion once it is done, never the streamed pieces', async () => {
    const fake = createFakeEngine();
    const user = userEvent.setup();
    render(
      <AnnouncerProvider>
        <Composer initial="hey can u look at the deploy" />
      </AnnouncerProvider>,
    );
    const said = screen.getByRole('status');
    await startPolish(user);
    expect(said.textContent).toBe('Polish: generating a suggestion');
    // The visible 'Generating...' is no second live region: the page has one announcer.
    expect(screen.getAllByRole('status')).toHaveLength(1);
    const { stream } = fake.refines[0]!;
    await act(async () => stream.next({ chunk: 'Hey, could you ' }));
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, ANNOUNCE_GAP_MS + 50)));
    expect(said.textContent).toBe('Polish: generating a suggestion');
    await act(async () => stream.next({ done: true, text: 'Hey, could you take a look at the deploy?' }));
    expect(said.textContent).toBe('Polish suggestion ready: Hey, could you take a look at the deploy?');
  });
});
