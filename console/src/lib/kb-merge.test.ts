import { describe, expect, it } from 'vitest';
import { mergeApproved } from './kb-merge';

const saved = 'Q: Do you park?\nA: Yes, on the drive.\n\nQ: Boiler service?\nA: It costs £85.';

describe('mergeApproved: a website draft approved while the knowledge base has unsaved edits', () => {
  it('shows the server text when nothing is being edited', () => {
    const after = `${saved}\n\nQ: Areas?\nA: Leeds.`;
    expect(mergeApproved(saved, saved, after)).toEqual({ text: after, outcome: 'clean' });
  });

  it('adds a new entry after the edits, a blank line apart', () => {
    const editing = `${saved}\n\nQ: Sundays?\nA: Closed.\n`;
    expect(mergeApproved(saved, editing, `${saved}\n\nQ: Areas?\nA: Leeds.`)).toEqual({
      text: `${saved}\n\nQ: Sundays?\nA: Closed.\n\nQ: Areas?\nA: Leeds.`,
      outcome: 'merged',
    });
  });

  it('adds the first entry to an empty knowledge base being typed into', () => {
    expect(mergeApproved('', 'Q: Mine?\nA: Yes.', 'Q: Areas?\nA: Leeds.').text).toBe('Q: Mine?\nA: Yes.\n\nQ: Areas?\nA: Leeds.');
  });

  it('replaces a changed answer inside the edits, keeping the edits around it', () => {
    const editing = saved.replace('on the drive', 'on the street');
    const after = saved.replace('£85', '£95');
    expect(mergeApproved(saved, editing, after)).toEqual({ text: editing.replace('£85', '£95'), outcome: 'merged' });
  });

  it('keeps the edits alone when the owner edited the line the change replaces', () => {
    const editing = saved.replace('£85', '£80');
    expect(mergeApproved(saved, editing, saved.replace('£85', '£95'))).toEqual({ text: editing, outcome: 'kept' });
  });
});
