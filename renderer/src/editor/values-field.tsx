import { useTypedText } from './use-typed-text';

const splitValues = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Allowed values (a flow parameter's enum, an ask field's options), typed
 * comma separated and kept as typed: parsing each keystroke would eat the commas.
 */
export function EnumValuesField({
  id,
  label,
  values,
  onChange,
}: {
  id?: string;
  label?: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
}) {
  const [text, setText] = useTypedText(
    values,
    (v) => v.join(', '),
    (typed, v) => splitValues(typed).join() === v.join(),
  );
  return (
    <input
      id={id}
      aria-label={label}
      placeholder="allowed values, comma separated"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(splitValues(e.target.value));
      }}
    />
  );
}
