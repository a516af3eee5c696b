import { describe, expect, it } from 'vitest';
import { textProblem, withoutInvisibles } from './text-hygiene.js';

describe('withoutInvisibles', () => {
  it('removes direction controls, zero-width and control characters, and keeps the words', () => {
    expect(withoutInvisibles('\u202Egnihtemos\u202C is\u200B \u2066hid\u00ADden\u2069\u200E\u200F\uFEFF\u0000\u0007\u009B')).toBe('gnihtemos is hidden');
    expect(textProblem(withoutInvisibles('a\u202Eb\u2067c\u0001d'), 'multiline')).toBeNull();
  });

  it('keeps line breaks, tabs, emoji joined by ZWJ and the flags of England, Scotland and Wales', () => {
    const kept = 'Line one\r\nLine\ttwo 👩\u200D🔧 \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} é';
    expect(withoutInvisibles(kept)).toBe(kept);
  });

  it('removes tag characters that hide ASCII outside a flag, and mends a lone UTF-16 half', () => {
    expect(withoutInvisibles('ok\u{E0049}\u{E0047}\u{E004E}\u{E004F}\u{E0052}\u{E0045}\u{E007F}')).toBe('ok');
    expect(withoutInvisibles('a\uD800b\uDC00')).toBe('a\uFFFDb\uFFFD');
  });
});
