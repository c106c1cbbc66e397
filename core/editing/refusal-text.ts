import type { UnsavedText } from './unsaved-text';
import type { ChangeSet } from '../model/change-set';
import type { ErrorCode } from '../model/errors';
import type { Problem } from '../model/problems';

/**
 * The id of a node this window added that another window's new node took
 * meanwhile, when that is why the host refused the edit. Ids are
 * `<type>_<n>`: two windows adding a node of one type at once both take the
 * next one.
 */
export function clashingNodeId(problems: readonly Problem[], refused: readonly ChangeSet[]): string | undefined {
  const added = new Set(refused.flatMap((changes) => changes.addNodes.map((node) => node.id)));
  return problems.find((p) => p.code === 'DUPLICATE_NODE_ID' && p.nodeId && added.has(p.nodeId))?.nodeId;
}

/**
 * What the refusal banner's title says: why the edit was not saved, and what
 * became of the flow and of what the person typed (`unsaved`, listed below it).
 */
export function refusalTitle(
  { code, message }: { code: ErrorCode; message: string },
  clash: string | undefined,
  reloaded: boolean,
  unsaved: readonly UnsavedText[],
): string {
  const redo = !reloaded
    ? 'could not be reloaded (is Flowbench still running?): what you typed is below, to copy; reload the window once Flowbench is back'
    : unsaved.some((item) => item.text !== '')
      ? 'was reloaded; what you typed is below, to copy or put back'
      : unsaved.length > 0
        ? `was reloaded; ${unsaved.length === 1 ? 'the node you added is' : 'the nodes you added are'} below, to put back`
        : 'was reloaded; redo your last edit';
  if (code === 'EDIT_CONFLICT') {
    // The host's message ends "reload to see it" (or "reload the flow") for API clients: the editor has reloaded already.
    return `Someone changed this flow elsewhere: ${message.replace(/; reload (to see it|the flow)$/, '')}. The flow ${redo}.`;
  }
  if (clash) {
    return `Another window added a node "${clash}" while this one added its own, so yours was not saved. The flow ${redo}.`;
  }
  return `Your last edit was not saved (${code}): ${message}${unsaved.length > 0 || !reloaded ? `. The flow ${redo}.` : ''}`;
}

/** The toast once the nodes a clash refused went back by themselves (putBackAllAdded), with the ids they took. */
export function putBackAllMessage(clash: string, ids: ReadonlyMap<string, string>): string {
  const renamed = [...ids].filter(([was, now]) => was !== now);
  const [only] = renamed;
  const yours =
    renamed.length === 1 && only
      ? `yours is now "${only[1]}"`
      : `yours are now ${renamed.map(([was, now]) => `"${now}" (was ${was})`).join(', ')}`;
  return `Another window added a node "${clash}" while this one added its own; ${yours}`;
}

/** The toast when cards this window moved were removed in another window meanwhile (movesOfRemoved). */
export function movedRemovedMessage(gone: readonly string[], movedAgain: boolean): string {
  const cards = gone.length === 1 ? `"${gone[0]}"` : gone.map((id) => `"${id}"`).join(', ');
  const rest = movedAgain ? '; the other cards you moved are where you put them' : '';
  return `Another window removed ${cards} while you moved ${gone.length === 1 ? 'it' : 'them'}${rest}`;
}
