/**
 * The first `length` UTF-16 units of `text`, one fewer where the cut would
 * fall between the two halves of a character outside the BMP (an emoji, a
 * CJK extension): a half alone shows as � and is stored so.
 */
export function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}
