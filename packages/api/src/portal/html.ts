// HTML written as tagged templates: every interpolated value is escaped
// unless it is already `SafeHtml` (the output of `html` itself, or a constant
// marked with `trusted`). Pages are built from these, so a value from a
// request or the catalogue can never become markup.

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: the template's literal parts as written, each value escaped (arrays joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Markup written in this code base (never data): used as is. */
export const trusted = (markup: string): SafeHtml => new SafeHtml(markup);
