import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_EVENTS, eventFilterBody } from './event-filter.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Every `.ts` file under `dir`, tests left out. */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => path.join(root, dir, f));
}

describe('the Stasis app’s event filter (issue 47)', () => {
  it('lets through every event type the PBX code waits for or matches on', () => {
    const used = new Set<string>();
    for (const file of sources('pbx')) {
      const text = fs.readFileSync(file, 'utf8');
      // `e.type === 'X'` and `type.startsWith('X')` (the recording steps match any Recording* event).
      for (const m of text.matchAll(/\.type === '([A-Z][A-Za-z]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\.type\.startsWith\('([A-Z][A-Za-z]+)'\)/g)) used.add(`${m[1]}*`);
    }
    expect(used.size).toBeGreaterThan(8);
    for (const type of used) {
      if (type.endsWith('*')) expect(APP_EVENTS.filter((t) => t.startsWith(type.slice(0, -1))).length, type).toBeGreaterThan(0);
      else expect(APP_EVENTS, type).toContain(type);
    }
  });

  it('names only event types Asterisk 20 declares', () => {
    const declared = JSON.parse(fs.readFileSync(path.join(root, '../shared/ari/api-docs/events.json'), 'utf8')) as { models: Record<string, unknown> };
    for (const type of APP_EVENTS) expect(Object.keys(declared.models), type).toContain(type);
  });

  it('is sent as an allowed list, the shape applications.json gives', () => {
    expect(eventFilterBody(['StasisStart', 'StasisEnd'])).toEqual({ allowed: [{ type: 'StasisStart' }, { type: 'StasisEnd' }] });
  });
});
