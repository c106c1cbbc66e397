import { base64Bytes, dataUrlPieces, PICTURE_TYPES } from './data-urls';

/** An image a prompt carries, as a model API takes it: its type and its bytes in base64. */
export interface PromptImage {
  mediaType: string;
  data: string;
}

/**
 * A prompt's text with each image's data: URL taken out as `[image 1]`,
 * `[image 2]`…, and those images: sent as image parts beside the text (a model
 * reads base64 as text, at great cost, not as the picture), and recorded in
 * the run as the text with its placeholders (the image is in the step that made it).
 */
export function promptImages(text: string): { text: string; images: PromptImage[] } {
  if (!text.includes('data:image/')) return { text, images: [] };
  const images: PromptImage[] = [];
  const pieces = dataUrlPieces(text, (type) => PICTURE_TYPES.has(type)).map((piece) => {
    if (piece.type === undefined) return piece.text;
    images.push({ mediaType: piece.type, data: piece.data });
    return `[image ${images.length}]`;
  });
  return { text: pieces.join(''), images };
}

/** How a recorded message names the images sent with it, after its text. */
export function imagesNote(images: readonly PromptImage[]): string {
  return images
    .map((image, i) => `[image ${i + 1}: ${image.mediaType}, ${base64Bytes(image.data)} bytes, sent as an image]`)
    .join('\n');
}
