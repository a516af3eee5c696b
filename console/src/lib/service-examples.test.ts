import { describe, expect, it } from 'vitest';
import { INDUSTRIES } from '../../../contract/rules';
import { serviceExample } from './service-examples';

describe("the Services form's examples", () => {
  it('gives every sign-up industry its own example, and anything else a general one', () => {
    const names = new Set(INDUSTRIES.filter((i) => i !== 'other').map((i) => serviceExample(i).name));
    expect(names.size).toBe(INDUSTRIES.length - 1);
    expect(serviceExample('beauty').name).toBe('Cut and blow-dry');
    expect(serviceExample('beauty').sentence).not.toMatch(/boiler/i);
    expect(serviceExample('other')).toEqual(serviceExample(null));
    expect(serviceExample('other').name).not.toBe(serviceExample('plumbing').name);
  });
});
