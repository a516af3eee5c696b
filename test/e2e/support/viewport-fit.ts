import type { Page } from 'playwright-core';

/**
 * What does not fit the screen, described for a failure message: the page's sideways scroll,
 * anything shown that reaches past the viewport's left or right edge, and anything cut off by
 * a box that hides its overflow (a card wider than its list is cut off even when the list
 * fits). Measured against the screen, not a card. Left out: what is not shown (display none,
 * visibility hidden, zero size, inside an inert or aria-hidden subtree such as the phone's
 * closed sidebar drawer or a decorative shape), screen-reader-only text (clipped to 1 px),
 * text cut with an ellipsis on purpose, and what sits in a box that scrolls sideways itself.
 */
export function outsideViewport(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    const sw = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (sw > vw) out.push('page scrolls sideways: ' + sw + ' > ' + vw);
    const name = (el) => {
      const label = el.getAttribute('aria-label') || (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
      const cls = typeof el.className === 'string' ? el.className.split(/\\s+/).filter(Boolean).slice(0, 4).join('.') : '';
      return el.tagName.toLowerCase() + (cls ? '.' + cls : '') + ' "' + label + '"';
    };
    /** Visually hidden for screen readers (sr-only, a stacked table's header): clipped away whole. */
    const srOnly = (s) => s.position === 'absolute' && (s.clipPath === 'inset(50%)' || (s.clip !== '' && s.clip !== 'auto'));
    /**
     * The nearest ancestor that hides horizontal overflow, or null; 'scrolls' when one scrolls
     * sideways, 'ellipsis' when it cuts text on purpose, 'hidden' inside screen-reader-only text.
     */
    const clipper = (el) => {
      let found = null;
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (srOnly(s)) return 'hidden';
        if (found || a === el) continue;
        if (s.overflowX === 'auto' || s.overflowX === 'scroll') found = 'scrolls';
        else if (s.overflowX === 'hidden' || s.overflowX === 'clip') found = s.textOverflow === 'ellipsis' ? 'ellipsis' : a;
      }
      return found;
    };
    const reported = [];
    for (const el of document.body.querySelectorAll('*')) {
      // One line per subtree that does not fit: its outermost element.
      if (reported.some((a) => a.contains(el))) continue;
      if (el.closest('[inert],[aria-hidden="true"]')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const clip = clipper(el);
      if (clip === 'scrolls' || clip === 'ellipsis' || clip === 'hidden') continue;
      let problem = null;
      if (r.right > vw + 0.5 || r.left < -0.5) problem = 'spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of a ' + vw + ' px screen';
      else if (clip) {
        const c = clip.getBoundingClientRect();
        if (r.right > c.right + 0.5 || r.left < c.left - 0.5)
          problem = 'is cut off: spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' inside ' + name(clip).slice(0, 60) + ' ' + Math.round(c.left) + '..' + Math.round(c.right);
      }
      if (problem) {
        reported.push(el);
        out.push(name(el) + ' ' + problem);
      }
    }
    return out;
  })()`);
}
