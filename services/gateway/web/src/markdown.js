// Markdown from the model or the offline analyst → safe HTML. Raw HTML inside the markdown is
// shown as text (a process named "<img src=x onerror=...>" quoted in an answer stays text), and
// DOMPurify sanitizes what marked produces as a second line of defence.

import { Marked } from 'marked';
import DOMPurify from 'dompurify';

function escapeHtml(s) {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html(token) {
      return escapeHtml(token.text !== undefined ? token.text : token.raw || '');
    },
  },
});

export function renderMarkdown(text) {
  const html = marked.parse(text || '', { async: false });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['img', 'style', 'iframe', 'form', 'input', 'svg', 'math'],
    FORBID_ATTR: ['style'],
  });
}
