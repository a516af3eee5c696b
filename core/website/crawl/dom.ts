// The little of the DOM the crawl reads from linkedom's documents, typed here because the
// server's TypeScript has no DOM library (only the console's has): a shape, not a polyfill.

export interface DomNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  tagName: string;
  localName: string;
  id: string;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
  contains(other: DomElement): boolean;
}

export interface DomDocument {
  documentElement: DomElement | null;
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}
