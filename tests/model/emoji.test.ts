import { describe, expect, it } from 'vitest';
import { emojify } from '../../src/model/emoji';

describe('emojify', () => {
  it.each([
    ['Still down :fire: WEB-1129', 'Still down 🔥 WEB-1129'],
    ['Rollback failed :x: now', 'Rollback failed ❌ now'],
    [':+1::skin-tone-3:', '👍🏼'],
    ['unknown :not_an_emoji_code: stays', 'unknown :not_an_emoji_code: stays'],
    ['time 10:30:45 stays', 'time 10:30:45 stays'],
    ['', ''],
  ])('%j → %j', (text, expected) => {
    expect(emojify(text)).toBe(expected);
  });
});
