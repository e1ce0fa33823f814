import { describe, expect, it } from 'vitest';
import { speakableText } from '../../src/ui/voice/speech';

describe('speakableText', () => {
  it.each([
    ['The deploy is done [1].', 'The deploy is done.'],
    ['Two sources [1, 2] agree', 'Two sources agree'],
    ['Items:\n- one\n  • two\n* three', 'Items:\none\ntwo\nthree'],
    ['a - b stays', 'a - b stays'],
  ])('%j', (text, spoken) => {
    expect(speakableText(text)).toBe(spoken);
  });

  it('reads 40,000-character runs of spaces and blank lines as they are (the bench times them)', () => {
    const spaces = ' '.repeat(40_000);
    expect(speakableText(`a${spaces}[1]${spaces}b`)).toBe(`a${spaces}b`);
    expect(speakableText(`a${'\n'.repeat(40_000)}- b`)).toBe(`a${'\n'.repeat(40_000)}b`);
    expect(speakableText(`a${spaces},1]`)).toBe(`a${spaces},1]`);
  });
});
