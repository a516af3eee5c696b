// The HTML half of call e-mails: escaped text in one plain, mail-client-safe layout (inline
// styles only: most clients drop <style> blocks and never run scripts).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Everything a caller, a transcript or a model wrote goes through this before it is HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text with its line breaks kept. */
export function htmlParagraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function htmlLink(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="color:#2563eb">${escapeHtml(label)}</a>`;
}

/** A whole message: `bodyHtml` must already be escaped. */
export function htmlMail(title: string, bodyHtml: string, footer: string): string {
  return (
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">` +
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${bodyHtml}` +
    `<p style="margin:24px 0 0;font-size:13px;color:#64748b">${escapeHtml(footer)}</p></div></body></html>`
  );
}
