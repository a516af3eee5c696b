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

/**
 * What reaches out of its table cell into the next column, described for a failure message:
 * every element and run of text inside a cell of the named table, measured against the cell's
 * own box. Left out: what sits inside a box that hides or scrolls its overflow within the cell
 * (text cut with an ellipsis on purpose; that box itself is measured) and what is not shown.
 */
export function cellsSpilling(page: Page, tableLabel: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `((label) => {
      const out = [];
      const table = [...document.querySelectorAll('table')].find((t) => t.getAttribute('aria-label') === label);
      if (!table) return ['no table named ' + label];
      for (const cell of table.querySelectorAll('td, th')) {
        const box = cell.getBoundingClientRect();
        if (box.width === 0) continue;
        const column = cell.getAttribute('data-label') || (cell.textContent || '').trim().slice(0, 20);
        /** Inside a box of the cell that cuts or scrolls its own overflow: that box is measured instead. */
        const contained = (node) => {
          for (let a = node.parentElement; a && a !== cell; a = a.parentElement) {
            const x = getComputedStyle(a).overflowX;
            if (x !== 'visible') return true;
          }
          return false;
        };
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (contained(n)) continue;
          let r;
          if (n.nodeType === Node.TEXT_NODE) {
            if (!n.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            r = range.getBoundingClientRect();
          } else {
            const s = getComputedStyle(n);
            if (s.display === 'none' || s.visibility === 'hidden' || (s.position === 'absolute' && s.clipPath === 'inset(50%)')) continue;
            r = n.getBoundingClientRect();
          }
          if (r.width === 0 || r.height === 0) continue;
          if (r.right > box.right + 0.5 || r.left < box.left - 0.5) {
            const what = n.nodeType === Node.TEXT_NODE ? 'text' : n.tagName.toLowerCase();
            out.push(column + ': ' + what + ' "' + (n.textContent || '').trim().slice(0, 30) + '" spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' in a cell ' + Math.round(box.left) + '..' + Math.round(box.right));
          }
        }
      }
      return out;
    })(${JSON.stringify(tableLabel)})`,
  );
}
