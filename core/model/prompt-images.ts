/** An image a prompt carries, as a model API takes it: its type and its bytes in base64. */
export interface PromptImage {
  mediaType: string;
  data: string;
}

/**
 * An image's data: URL in the types vision models read (an HTTP request node's
 * image, put into a prompt by a reference). Anywhere in the text; its base64 runs to the first other character.
 */
const IMAGE = /data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})/g;

/**
 * A prompt's text with each image's data: URL taken out as `[image 1]`,
 * `[image 2]`…, and those images: sent as image parts beside the text (a model
 * reads base64 as text, at great cost, not as the picture), and recorded in
 * the run as the text with its placeholders (the image is in the step that made it).
 */
export function promptImages(text: string): { text: string; images: PromptImage[] } {
  if (!text.includes('data:image/')) return { text, images: [] };
  const images: PromptImage[] = [];
  const out = text.replace(IMAGE, (_whole, mediaType: string, data: string) => {
    images.push({ mediaType, data });
    return `[image ${images.length}]`;
  });
  return { text: out, images };
}

/** How a recorded message names the images sent with it, after its text. */
export function imagesNote(images: readonly PromptImage[]): string {
  const bytes = (image: PromptImage) =>
    Math.floor((image.data.length * 3) / 4) - (image.data.match(/=+$/)?.[0].length ?? 0);
  return images
    .map((image, i) => `[image ${i + 1}: ${image.mediaType}, ${bytes(image)} bytes, sent as an image]`)
    .join('\n');
}
