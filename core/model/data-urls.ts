/**
 * `data:` URLs of bytes in base64, as Flowbench carries a picture or a file in
 * text (an HTTP request node's binary answer, an MCP tool's image, a picture
 * attached in the Run form): made, found in text, measured.
 */

const TYPE = '[\\w.+-]+\\/[\\w.+-]+';
const DATA_URL = new RegExp(`data:(${TYPE});base64,([A-Za-z0-9+/]+={0,2})`, 'g');
const STARTS_AS_DATA_URL = new RegExp(`^data:(${TYPE});base64,`);

/**
 * The picture types Flowbench shows and sends as pictures: what vision models
 * read and browsers draw alike (an SVG, which can carry script, stays text).
 */
export const PICTURE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Whether the whole text is one data: URL of a picture (a node's output that is an image). */
export function isPictureUrl(text: string): boolean {
  const type = dataUrlType(text);
  return type !== undefined && PICTURE_TYPES.has(type) && /^data:[^,]+,[A-Za-z0-9+/]+={0,2}$/.test(text);
}

/** A data: URL of bytes of this type. */
export const dataUrl = (type: string, base64: string): string => `data:${type};base64,${base64}`;

/** The media type of text that starts as a data: URL of bytes, or undefined for any other text. */
export const dataUrlType = (text: string): string | undefined => STARTS_AS_DATA_URL.exec(text)?.[1];

/** How many bytes base64 holds: 3 in every 4 characters, less one for each = of padding. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** How many bytes a data: URL holds. */
export const dataUrlBytes = (url: string): number => base64Bytes(url.slice(url.indexOf(',') + 1));

/** A piece of text: text as it is, or one data: URL with its type and base64. */
export type TextPiece = { text: string; type?: undefined } | { text: string; type: string; data: string };

/**
 * Text with the data: URLs in it as pieces of their own, in order (an MCP
 * tool's text, its image, its text). Only URLs of the types `takes` accepts
 * are taken out; others stay in the text around them. Empty text is no pieces.
 */
export function dataUrlPieces(text: string, takes: (type: string) => boolean = () => true): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  if (text.includes(';base64,')) {
    for (const match of text.matchAll(DATA_URL)) {
      const type = match[1] as string;
      if (!takes(type)) continue;
      if (match.index > at) pieces.push({ text: text.slice(at, match.index) });
      pieces.push({ text: match[0], type, data: match[2] as string });
      at = match.index + match[0].length;
    }
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}
