import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFINE_MODES, type RefineMode } from '../../../src/model/ai';
import { chunkText, refineLocally } from '../../../src/server/ai/local/refine';

type Row = readonly [input: string, expected: string];

const TABLES: Record<RefineMode, Row[]> = {
  polish: [
    ['i dont know if im able to make it tomorow , sorry', "I don't know if I'm able to make it tomorrow, sorry."],
    ['the the build is is green  ,and tests pass', 'The build is green, and tests pass.'],
    ['what time is the meeting', 'What time is the meeting?'],
    ['do it now', 'Do it now.'],
    ['is the deploy done', 'Is the deploy done?'],
    ['great job everyone!!! thanks so much! see u tomorrow :)', 'Great job everyone! Thanks so much! See u tomorrow :)'],
    ['teh fix is in.Next we ship', 'The fix is in. Next we ship.'],
    ['wait.. really??', 'Wait. Really?'],
    ['i.e. the usual, e.g. this one', 'I.e. the usual, e.g. this one.'],
    ["i recieve it. i'll check", "I receive it. I'll check."],
    ['Recieved it, recieve it. thats definately teh plan, dont worry', "Received it, receive it. That's definitely the plan, don't worry."],
    ['- fix bug\n- deploy\n\n\n- tell team', '- Fix bug\n- Deploy\n\n- Tell team'],
    ['Deploy is done. Tell <#C1|general> :tada:', 'Deploy is done. Tell <#C1|general> :tada:'],
    ['can you review <https://github.com/x/pull/1|my PR> today <@U123>', 'Can you review <https://github.com/x/pull/1|my PR> today <@U123>?'],
  ],
  professional: [
    [
      'hey guys i think teh deploy is gonna be late lol, can u check it asap!!!',
      'Hi all, I think the deploy is going to be late, can you check it as soon as possible!',
    ],
    ['great job everyone!!! thanks so much! see u tomorrow :)', 'Great job everyone! Thanks so much. See you tomorrow.'],
    ['hey dana, thx for the info btw', 'Hi dana, thank you for the information by the way.'],
    ['yeah, idk. wanna sync tmrw?', "Yes, I don't know. Want to sync tomorrow?"],
    ['Great job! Thanks!', 'Great job! Thanks.'],
    ['haha ok cool', 'OK cool.'],
    ['lol', 'Lol.'],
  ],
  shorter: [
    ['So, I just wanted to let you know that the build is basically done. Please let me know if you have any questions.', 'The build is done.'],
    ['I was wondering if you could take a look at the logs when you get a chance.', 'Could you take a look at the logs when you get a chance?'],
    ['Hi Dana, I was wondering if you could send me the report.', 'Hi Dana, could you send me the report?'],
    ['I think that we should really just ship it.', 'We should ship it.'],
    [
      'We need to act in order to fix it at this point in time, due to the fact that users are waiting.',
      'We need to act to fix it now, because users are waiting.',
    ],
    ['Hope this helps! Thanks in advance.', 'Thanks.'],
    ['Deploy is done.', 'Deploy is done.'],
    ['just', 'Just.'],
  ],
  simplify: [
    [
      'We need to utilize the new API in order to facilitate the migration, and we should commence the work at this point in time because the old one is deprecated.',
      'We need to use the new API to help the migration. We should start the work now because the old one is deprecated.',
    ],
    [
      'However, we require additional time to ascertain the cause, but the team will endeavor to obtain the logs today.',
      'But we need more time to find out the cause. But the team will try to get the logs today.',
    ],
    ['The fix is approximately done.', 'The fix is about done.'],
    ['short and sweet, and done', 'Short and sweet, and done.'],
  ],
  list: [
    ['Things to do: fix the login bug, update the docs and deploy to staging.', 'Things to do:\n• Fix the login bug\n• Update the docs\n• Deploy to staging'],
    ['We need milk, eggs, and bread', '• We need milk\n• Eggs\n• Bread'],
    ['fix the bug and deploy it', '• Fix the bug\n• Deploy it'],
    ['Deploy is done. Docs are updated. Tell <#C1|general> :tada:', '• Deploy is done\n• Docs are updated\n• Tell <#C1|general> :tada:'],
    ['- fix bug\n- deploy\n- tell team', '• Fix bug\n• Deploy\n• Tell team'],
    ['Hi Dana, can you send me the report?', '• Hi Dana, can you send me the report?'],
    ['Agenda: budget; hiring; offsite', 'Agenda:\n• Budget\n• Hiring\n• Offsite'],
  ],
};

describe('refineLocally', () => {
  for (const mode of REFINE_MODES) {
    it.each(TABLES[mode])(`${mode}: %j`, (input, expected) => {
      expect(refineLocally(input, mode)).toBe(expected);
    });
  }

  it('returns an empty text for a blank draft', () => {
    for (const mode of REFINE_MODES) expect(refineLocally('  \n ', mode)).toBe('');
  });

  it.each([
    'so I just really think that basically we should ship',
    'I was wondering if you could review it',
    'Honestly, the release is actually on track. Let me know if you have any questions.',
    'we will meet in order to make a decision on a weekly basis',
  ])('shorter makes a draft with filler strictly shorter: %j', (input) => {
    const out = refineLocally(input, 'shorter');
    expect(out.length).toBeLessThan(input.length);
    expect(out.trim()).not.toBe('');
  });

  it('keeps markup byte for byte in every mode, even where a rule would match inside it', () => {
    const markup = [
      '<@U123>',
      '<#C1|general>',
      '<https://example.com/a_b?x=1|the just really doc>',
      'https://example.com/teh/dont',
      ':thumbsup::skin-tone-2:',
      '`dont  do   this`',
      '```\nteh code,, i  dont\n```',
    ];
    const text = `hey guys i just really think ${markup.join(' and ')} is gonna work lol`;
    for (const mode of REFINE_MODES) {
      const out = refineLocally(text, mode);
      let from = 0;
      for (const token of markup) {
        const at = out.indexOf(token, from);
        expect(at, `${mode} keeps ${token}`).toBeGreaterThanOrEqual(0);
        from = at + token.length;
      }
    }
  });
});

/* ------------------------------------------------------------------ properties */

const WORDS = [
  'hey',
  'guys',
  'i',
  'just',
  'really',
  'basically',
  'think',
  'that',
  'teh',
  'dont',
  'im',
  'gonna',
  'u',
  'asap',
  'lol',
  'in order to',
  'utilize',
  'and',
  'but',
  'so',
  'the',
  'deploy',
  'is',
  'done',
  'can',
  'you',
  'review',
  'it',
  'please',
  'let me know if you have any questions',
  'I was wondering if you could',
  'Things:',
  'a',
  'b',
  'c',
  'ok',
  'thx',
];
const SEPARATORS = [' ', '  ', ', ', '. ', '! ', '? ', '\n', ' ; ', ': ', '!!! ', ' , '];
const markupToken = fc.oneof(
  fc.stringMatching(/^<@U[A-Z0-9]{1,8}>$/),
  fc.stringMatching(/^<#C[A-Z0-9]{1,6}\|[a-z-]{1,10}>$/),
  fc.stringMatching(/^<https:\/\/[a-z]{1,8}\.com\/[a-z_]{0,6}\|[a-z ]{1,12}>$/),
  fc.stringMatching(/^:[a-z_+-]{1,10}:$/),
  fc.stringMatching(/^`[a-z ,.!]{1,12}`$/),
  fc.stringMatching(/^```\n[a-z ,.!\n]{1,20}\n```$/),
);
const piece = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), markupToken);
const draft = fc.array(fc.tuple(piece, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 25 }).map((parts) => parts.map(([p, s]) => p + s).join(''));
const mode = fc.constantFrom(...REFINE_MODES);

describe('refineLocally properties', () => {
  it('never throws and never returns an empty text for a non-blank draft', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string(), draft), mode, (text, m) => {
        const out = refineLocally(text, m);
        expect(out.trim() === '').toBe(text.trim() === '');
      }),
      { numRuns: 400 },
    );
  });

  it('keeps every markup token, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...WORDS), markupToken, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 12 }),
        mode,
        (parts, m) => {
          const text = parts.map(([w, t, s]) => `${w} ${t}${s}`).join('');
          const out = refineLocally(text, m);
          let from = 0;
          for (const [, token] of parts) {
            const at = out.indexOf(token, from);
            expect(at).toBeGreaterThanOrEqual(0);
            from = at + token.length;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is deterministic and idempotent for polish', () => {
    fc.assert(
      fc.property(draft, (text) => {
        const once = refineLocally(text, 'polish');
        expect(refineLocally(text, 'polish')).toBe(once);
        expect(refineLocally(once, 'polish')).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('chunkText', () => {
  it.each([
    ['', []],
    ['Hello world', ['Hello ', 'world']],
    ['  two  spaces\n', ['  ', 'two  ', 'spaces\n']],
    ['wonderful extraordinarily', ['wonde', 'rful ', 'extraord', 'inarily']],
  ])('chunkText(%j)', (text, chunks) => {
    expect(chunkText(text)).toEqual(chunks);
  });

  it('round-trips any text, in chunks of at most 8 characters plus whitespace', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string(), draft), (text) => {
        const chunks = chunkText(text);
        expect(chunks.join('')).toBe(text);
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(Array.from(chunk.trimEnd()).length).toBeLessThanOrEqual(8);
        }
      }),
      { numRuns: 500 },
    );
  });
});
