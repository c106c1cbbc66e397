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
