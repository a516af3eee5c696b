// What the crawl could not read, in the owner's words (shown beside the crawl in the console).
// One sentence per kind of trouble, so the console and the tests read the same text.

export const PROBLEM = {
  refused: (status: number) => `The site refused to show this page (it answered ${status}).`,
  notFound: (status: number) => `Not found: the site has no page at this address (it answered ${status}).`,
  serverError: (status: number) => `The site could not show this page just now (it answered ${status}).`,
  needsJavaScript: 'This page needs JavaScript to show its text, which the box does not run: nothing was read from it.',
  empty: 'This page has no text to read.',
  pdf: 'A PDF: skipped.',
  image: 'An image: skipped.',
  file: 'Not a web page (a file to download): skipped.',
  cut: (megabytes: number) => `A very large page: only its first ${megabytes} MB were read.`,
  offSite: (host: string) => `This page sends visitors to another site (${host}): not followed.`,
  tooManyRedirects: 'This page redirects again and again: not followed.',
  robots: "Left alone: the site's robots.txt asks robots not to read this page.",
  notAllowed: 'That address is not allowed: the box only reads websites on the public internet.',
  unreachable: 'The box could not reach the site at this address.',
  timedOut: 'The site did not answer in time.',
} as const;

export const STOPPED = {
  pageLimit: (pages: number) => `The site has more than ${pages} pages: the first ${pages} were read.`,
  timeLimit: (pages: number) => `Time ran out after reading ${pages} ${pages === 1 ? 'page' : 'pages'}; the rest of the site was not read this time.`,
} as const;

/** The error crawlSite throws when the start page itself could not be read. */
export const startPageUnreadable = (why: string) => `Your website could not be read: ${why}`;
