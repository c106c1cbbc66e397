/** A 1×1 PNG in base64, as a chart or avatar API answers: the picture the image tests send and expect. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The same picture as bytes. */
export const tinyPng = (): Buffer => Buffer.from(TINY_PNG_BASE64, 'base64');
