/**
 * A field that takes text or JSON, as n8n's and Dify's condition values do:
 * what a person types is read as JSON when it is JSON (42, true, null,
 * ["a"], {"a": 1}, "quoted text"), and kept as the text typed otherwise
 * (billing, \d+, (yes|no)). Nothing typed is refused, so nothing is dropped.
 */
export function readTextOrJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * How a stored value shows in such a field, so that reading it back gives
 * the same value: text bare unless it would read as JSON ("42" stays the
 * text 42), anything else as JSON. Nothing stored shows empty.
 */
export function showTextOrJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string' && readTextOrJson(value) === value) return value;
  return JSON.stringify(value);
}
