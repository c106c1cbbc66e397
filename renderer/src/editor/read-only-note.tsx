/**
 * Says that what the inspector shows is a past run's or a published version's
 * ("Read-only: this node as it is in version 1. Back to the draft to edit it."),
 * when it is; nothing for the draft.
 */
export function ReadOnlyNote({
  shown,
  subject,
  isPlural = false,
}: {
  shown: string | undefined;
  subject: string;
  isPlural?: boolean;
}) {
  if (shown === undefined) return null;
  return (
    <p className="read-only-note" role="note">
      Read-only: {subject} as {isPlural ? 'they are' : 'it is'} in {shown}. Back to the draft to edit{' '}
      {isPlural ? 'them' : 'it'}.
    </p>
  );
}
