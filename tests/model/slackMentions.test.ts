/** Mention ids in Slack markup (model/slack): tables, hostile unclosed tags, and never a throw. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { channelMentions, usergroupMentions, userMentions } from '../../src/model/slack';

describe('mention ids', () => {
  it.each([
    ['hi <@U1> and <@W2|kim>', ['U1', 'W2'], [], []],
    ['<#C1> <#C2|general> <#G3|> <#D4>', [], ['C1', 'C2', 'G3', 'D4'], []],
    ['<!subteam^S1> <!subteam^S2|@oncall>', [], [], ['S1', 'S2']],
    // a label stops at '<' (Slack escapes it): an unclosed tag never swallows the next one
    ['<#C1|<#C2>', [], ['C2'], []],
    ['<@U1|<@U2>', ['U2'], [], []],
    // not mentions
    ['<@u1> <#c1> <@> <#> @U1 #C1 <mailto:a@b.c> <!here>', [], [], []],
  ])('%j', (text, users, channels, groups) => {
    expect(userMentions(text)).toEqual(users);
    expect(channelMentions(text)).toEqual(channels);
    expect(usergroupMentions(text)).toEqual(groups);
  });

  it('reads 40,000 characters of unclosed tags and finds the one real mention at the end', () => {
    const text = `${'<#C99|'.repeat(6_600)}<#C1>`;
    expect(channelMentions(text)).toEqual(['C1']);
  });

  it('never throws, and every id it answers is in the text as a mention', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '#', '@', '|', '!', 'C', 'U', '1', 'subteam^', 'S', ' ') }), (text) => {
        for (const id of channelMentions(text)) expect(text).toContain(`<#${id}`);
        for (const id of userMentions(text)) expect(text).toContain(`<@${id}`);
        for (const id of usergroupMentions(text)) expect(text).toContain(`<!subteam^${id}`);
      }),
    );
  });
});
