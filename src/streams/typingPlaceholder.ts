import { type Observable, type SchedulerLike, EMPTY, asyncScheduler, concat, concatMap, from, ignoreElements, map, repeat, timer } from 'rxjs';
import { TYPING_PLACEHOLDER } from '../model/ai';

/**
 * The Ask AI input's animated placeholder (SPEC §2.9, §9): each prompt is typed one
 * character every 50 ms, held for 2.5 s, deleted one character every 30 ms, then after a
 * 0.8 s pause the next prompt is typed; after the last prompt the first comes again, for as
 * long as someone subscribes. Each step waits its delay, then shows the new text.
 *
 *   prompts: ['Hi', 'Yo']   (t in ms)
 *   t:       50  100     2630 2660      3510 3560    6090 6120      6970 …
 *   output:  H   Hi      H    ''        Y    Yo      Y    ''        H    …
 *               |<-2.5s->|+30      |<-0.8s->|+50
 *
 * No prompts: completes at once.
 */
export function typingPlaceholder(prompts: readonly string[], scheduler: SchedulerLike = asyncScheduler): Observable<string> {
  if (prompts.length === 0) return EMPTY;
  const { typeMs, deleteMs, holdMs, pauseMs } = TYPING_PLACEHOLDER;
  const show = (text: string, delayMs: number) => timer(delayMs, scheduler).pipe(map(() => text));
  const wait = (delayMs: number) => timer(delayMs, scheduler).pipe(ignoreElements());

  const onePrompt = (prompt: string): Observable<string> => {
    const chars = [...prompt]; // by code point, so an emoji is one step
    const typed = chars.map((_, i) => show(chars.slice(0, i + 1).join(''), typeMs));
    const deleted = chars.map((_, i) => show(chars.slice(0, chars.length - 1 - i).join(''), deleteMs));
    return concat(...typed, wait(holdMs), ...deleted, wait(pauseMs));
  };

  return from(prompts).pipe(concatMap(onePrompt), repeat());
}
