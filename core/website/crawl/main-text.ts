import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { DomDocument, DomElement, DomNode } from './dom.js';

// A page's main text, as the drafter quotes it: Readability (Firefox's reader view) picks the
// article out of the menus and adverts, on a linkedom DOM. Paragraphs, list items, headings and
// table rows each become a line, so a sentence the drafter cites is a line it can find again.
//
// Readability drops what it calls boilerplate, and a small business's opening hours, address and
// phone usually sit exactly there: in the <footer>, an <address>, or a table of day names. Those
// are read from the page as it came (before Readability changes it) and appended below the
// article, each line only once.

export interface ReadPage {
  title: string;
  text: string;
  /** The page's links, as written (resolved against the page's address by the crawler). */
  links: string[];
  /** Almost no text, but scripts: the page is drawn by JavaScript, which the box does not run. */
  needsJavaScript: boolean;
}

/** Below this many letters a page has nothing worth drafting from. */
const NEAR_EMPTY = 40;
/**
 * Readability is built for articles: on a small business's short pages (a home page of a few
 * lines and links, an "about us" of one paragraph) it often picks the footer instead. A page
 * whose article is shorter than this is read whole, its menus (<nav>) left out.
 */
const SHORT_ARTICLE = 500;

const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME']);
const SKIP_MENUS = new Set([...SKIP, 'NAV']);
const DAY = /\b(mon|tues?|wed(nes)?|thu(rs)?|fri|sat(ur)?|sun)(day)?s?\b/i;

/** The text of a tree, one line per block, whitespace within a line folded. */
function linesOf(root: DomNode, skip: ReadonlySet<string> = SKIP): string[] {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const folded = line.replace(/\s+/g, ' ').trim();
    if (folded) lines.push(folded);
    line = '';
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = (node as DomElement).tagName.toUpperCase();
    if (skip.has(tag)) return;
    const block = BLOCK.has(tag);
    if (block) flush();
    Array.from(node.childNodes).forEach((child, i) => {
      // Cells of a row stay on one line ("Monday 8am to 6pm"), kept apart by a space.
      if (tag === 'TR' && i > 0) line += ' ';
      walk(child);
    });
    if (block || tag === 'TD' || tag === 'TH') {
      if (block) flush();
      else line += ' ';
    }
  };
  walk(root);
  flush();
  return lines;
}

/** The parts Readability tends to drop that hold a business's hours and address. */
function keptAside(doc: DomDocument): DomElement[] {
  const kept: DomElement[] = [];
  const add = (el: DomElement) => {
    if (!kept.some((k) => k.contains(el) || el.contains(k))) kept.push(el);
  };
  Array.from(doc.querySelectorAll('footer, address')).forEach(add);
  // Read by lines: textContent runs cells together ("SundayClosedMonday"), hiding the day names.
  const namesDays = (el: DomElement) => DAY.test(linesOf(el).join('\n'));
  for (const t of Array.from(doc.querySelectorAll('table'))) if (namesDays(t)) add(t);
  Array.from(doc.querySelectorAll('[id], [class]')).forEach((el) => {
    if (/opening|hours/i.test(`${el.id} ${el.getAttribute('class') ?? ''}`) && namesDays(el)) add(el);
  });
  return kept;
}

export function readPage(html: string): ReadPage {
  const { document } = parseHTML(html);
  const doc = document as unknown as DomDocument;
  const links = Array.from(doc.querySelectorAll('a[href]'), (a) => a.getAttribute('href') ?? '').filter(Boolean);
  const hasScripts = doc.querySelector('script') !== null;
  const aside = keptAside(doc).flatMap((el) => linesOf(el));
  const pageTitle = doc.querySelector('title')?.textContent?.trim() ?? '';
  const bodyLines = doc.body ? linesOf(doc.body, SKIP_MENUS) : [];

  // Readability changes the document it reads: it runs last, on this parse.
  // Its serializer hands back the article's element itself: no HTML written out to be parsed again.
  let article: { title?: string | null; content?: DomNode | null } | null = null;
  try {
    article = new Readability<DomNode>(document, { charThreshold: 100, serializer: (node) => node as unknown as DomNode }).parse();
  } catch {
    article = null;
  }
  let main: string[] = [];
  if (article?.content) main = linesOf(article.content);
  if (main.join('\n').length < SHORT_ARTICLE) main = bodyLines;

  const seen = new Set(main);
  const lines = [...main];
  for (const line of aside) {
    if (!seen.has(line) && !main.some((m) => m.includes(line))) {
      seen.add(line);
      lines.push(line);
    }
  }
  const text = lines.join('\n');
  const letters = text.replace(/[^\p{L}\p{N}]/gu, '').length;
  return {
    title: (article?.title?.trim() || pageTitle).replace(/\s+/g, ' '),
    text,
    links,
    needsJavaScript: letters < NEAR_EMPTY && hasScripts,
  };
}
