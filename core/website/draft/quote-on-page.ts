// Whether the sentence a draft cites is really on the page. The model copies sentences with
// small drift (curly quotes made straight, an en dash made a hyphen, a line break made a space,
// a capital lowered), so both sides are compared in one normal form; anything more than that
// drift means the model wrote the "quote" itself, and the draft is dropped.

/** Lower case, one kind of quote mark and dash, single spaces, no space before punctuation. */
function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032`´]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();
}

/** A quote this short proves nothing (a bare "£85" would carry any price the model liked). */
const MIN_QUOTE_CHARS = 12;

export function quoteOnPage(quote: string, pageText: string): boolean {
  // The closing full stop is the model's choice as often as the page's.
  const q = normaliseText(quote).replace(/^["']+|["'.]+$/g, '').trim();
  if (q.length < MIN_QUOTE_CHARS) return false;
  return normaliseText(pageText).includes(q);
}
