/** A `data:` URL of bytes: its media type, or undefined for any other text. */
export function dataUrlType(text: string): string | undefined {
  return /^data:([\w.+-]+\/[\w.+-]+);base64,/.exec(text)?.[1];
}

/** How many bytes a base64 `data:` URL holds: 3 in every 4 characters, less one for each = of padding. */
export function dataUrlBytes(url: string): number {
  const base64 = url.length - url.indexOf(',') - 1;
  const padding = url.endsWith('==') ? 2 : url.endsWith('=') ? 1 : 0;
  return (base64 * 3) / 4 - padding;
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Text with data: URLs in it (an MCP tool's text, its image, its text) as its pieces, each URL with its type. */
export function withDataUrls(text: string): { text: string; type?: string }[] {
  const parts: { text: string; type?: string }[] = [];
  let at = 0;
  for (const match of text.matchAll(/data:([\w.+-]+\/[\w.+-]+);base64,[A-Za-z0-9+/]+={0,2}/g)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: match[0], type: match[1] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
