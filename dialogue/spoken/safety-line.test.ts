import { describe, expect, it } from 'vitest';
import { GAS_SAFETY_LINES, handlesGas, mentionsGasLeak } from './safety-line.js';

describe('the gas safety line', () => {
  it('hears a gas smell or leak in the ways callers say it', () => {
    for (const said of ['I can smell gas in the kitchen', "There's a gas leak.", 'gas is leaking from the pipe', 'a strong smell of gas', 'I think gas is escaping', 'Smells like gas near the boiler']) {
      expect(mentionsGasLeak(said), said).toBe(true);
    }
  });

  it('does not fire on gas without a smell or leak, or a leak without gas', () => {
    for (const said of ['Can you service my gas boiler?', 'My tap is leaking', 'I need a gas safety certificate', 'The smell from the drain is awful']) {
      expect(mentionsGasLeak(said), said).toBe(false);
    }
  });

  it('is for trades that handle gas only', () => {
    expect(['plumbing', 'hvac', 'construction'].every(handlesGas)).toBe(true);
    expect(handlesGas('beauty')).toBe(false);
    expect(handlesGas(null)).toBe(false);
  });

  it('gives the National Gas Emergency number, and Northern Ireland’s', () => {
    const text = GAS_SAFETY_LINES.join(' ');
    expect(text).toContain('0 8 0 0, 1 1 1, 9 9 9');
    expect(text).toContain('0 8 0 0, 0 0 2, 0 0 1');
  });
});
