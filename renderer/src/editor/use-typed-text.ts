import { useEffect, useState } from 'react';

/**
 * The text of a field that stores a value read from it: what is typed stays
 * as typed ("0." on the way to "0.5", "a, b," on the way to "a, b, c") while
 * it `means` the stored value; when the value changes under the field (undo,
 * another window) it shows `show(value)`.
 */
export function useTypedText<T>(
  value: T,
  show: (value: T) => string,
  means: (text: string, value: T) => boolean,
): [string, (text: string) => void] {
  const [text, setText] = useState(() => show(value));
  useEffect(() => setText((current) => (means(current, value) ? current : show(value))), [value]); // show and means are read at each change of value
  return [text, setText];
}
