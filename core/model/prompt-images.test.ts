import { describe, expect, it } from 'vitest';
import { imagesNote, promptImages } from './prompt-images';

describe('images in a prompt', () => {
  it('takes out each image a vision model reads, numbered in order, and leaves other text as it is', () => {
    const split = promptImages(
      'Compare data:image/png;base64,iVBORw0KGgo= with data:image/jpeg;base64,/9j/4AAQ, not data:image/svg+xml;base64,PHN2Zz4= nor data:text/plain;base64,aGk=.',
    );
    expect(split).toEqual({
      text: 'Compare [image 1] with [image 2], not data:image/svg+xml;base64,PHN2Zz4= nor data:text/plain;base64,aGk=.',
      images: [
        { mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { mediaType: 'image/jpeg', data: '/9j/4AAQ' },
      ],
    });
    expect(imagesNote(split.images)).toBe(
      '[image 1: image/png, 8 bytes, sent as an image]\n[image 2: image/jpeg, 6 bytes, sent as an image]',
    );
    expect(promptImages('no pictures here')).toEqual({ text: 'no pictures here', images: [] });
  });
});
