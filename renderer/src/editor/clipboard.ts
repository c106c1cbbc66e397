import type { Clip } from '../../../core/editing/paste';

const KEY = 'flowbench.clipboard';

/**
 * Copied nodes live in localStorage, so they paste into another flow or another
 * tab of the same editor; the system clipboard gets the JSON too.
 */
export function copyToClipboard(clip: Clip): void {
  const text = JSON.stringify({ flowbenchClip: 1, ...clip });
  localStorage.setItem(KEY, text);
  void navigator.clipboard?.writeText(text).catch(() => undefined);
}

export function readClipboard(): Clip | undefined {
  const text = localStorage.getItem(KEY);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Clip>;
    return Array.isArray(value.nodes) && Array.isArray(value.edges) ? (value as Clip) : undefined;
  } catch {
    return undefined;
  }
}
