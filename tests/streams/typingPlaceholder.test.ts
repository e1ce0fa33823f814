/** Marble specs of the Ask AI typing placeholder (SPEC §2.9; timings of §9: 50 ms typing, 2.5 s hold, 30 ms deleting, 0.8 s pause). */
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXAMPLE_PROMPTS } from '../../src/model/ai';
import { typingPlaceholder } from '../../src/streams/typingPlaceholder';

let scheduler: TestScheduler;
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

/** Values: the text shown at each step. */
const V = { h: 'H', i: 'Hi', y: 'Y', o: 'Yo', e: '' };

describe('typingPlaceholder', () => {
  it('types at 50 ms a character, holds 2.5 s, deletes at 30 ms a character, pauses 0.8 s, then types the next prompt', () => {
    scheduler.run(({ expectObservable }) => {
      // H at 50, Hi at 100; hold until 2600; H at 2630, '' at 2660; pause until 3460; Y at 3510, Yo at 3560.
      expectObservable(typingPlaceholder(['Hi', 'Yo'], scheduler), '3561ms !').toBe('50ms h 49ms i 2529ms h 29ms e 849ms y 49ms o', V);
    });
  });

  it('comes back to the first prompt after the last one', () => {
    scheduler.run(({ expectObservable }) => {
      // Yo is held until 6060, deleted by 6120, pause until 6920; then H at 6970 and Hi at 7020.
      expectObservable(typingPlaceholder(['Hi', 'Yo'], scheduler), '7021ms !').toBe(
        '50ms h 49ms i 2529ms h 29ms e 849ms y 49ms o 2529ms y 29ms e 849ms h 49ms i',
        V,
      );
    });
  });

  it('stops its timers when unsubscribed (the input got text or focus)', () => {
    scheduler.run(() => {
      const seen: string[] = [];
      const sub = typingPlaceholder(['Hi'], scheduler).subscribe((text) => seen.push(text));
      scheduler.schedule(() => sub.unsubscribe(), 75);
      scheduler.flush();
      expect(seen).toEqual(['H']);
    });
  });

  it('starts from the first prompt for each new subscriber', () => {
    scheduler.run(({ expectObservable }) => {
      const out = typingPlaceholder(['Hi', 'Yo'], scheduler);
      expectObservable(out, '3000ms ^ 60ms !').toBe('3000ms 50ms h', V);
    });
  });

  it('cycles the eight example prompts, each fully typed in turn', () => {
    scheduler.run(() => {
      const full = new Set<string>();
      const out = typingPlaceholder(EXAMPLE_PROMPTS, scheduler);
      const sub = out.subscribe((text) => {
        if ((EXAMPLE_PROMPTS as readonly string[]).includes(text)) full.add(text);
      });
      scheduler.schedule(() => sub.unsubscribe(), 60_000);
      scheduler.flush();
      expect([...full]).toEqual([...EXAMPLE_PROMPTS]);
    });
  });

  it('completes at once with no prompts', () => {
    scheduler.run(({ expectObservable }) => {
      expectObservable(typingPlaceholder([], scheduler)).toBe('|');
    });
  });
});
