import { useMemo } from 'react';
import { renderTemplate, type RenderScope, type UsedValues } from '../../../core/model/render';
import { shortRunId, type RunRecord } from '../../../core/model/run';
import { templateReferences } from '../../../core/model/template';
import { HIDDEN } from '../../../core/model/secrets';
import { useAppStore } from '../store/app-store';
import { cutText } from '../../../core/model/cut-text';

// A preview, not the whole prompt: the step's details show that in full after a run.
const PREVIEW_CHARS = 600;

/**
 * What the references of a template see in a run: its inputs, and each node's
 * last step (its latest pass); a secret shows as the run recorded it, •••.
 */
function runScope(run: RunRecord): RenderScope {
  const last = new Map(run.steps.map((step) => [step.nodeId, step]));
  return {
    inputs: run.inputs,
    secret: () => HIDDEN,
    node(nodeId) {
      const step = last.get(nodeId);
      if (step?.status === 'succeeded') return { output: step.output };
      return step?.error ? { error: step.error } : undefined;
    },
  };
}

/**
 * A template as the run shown would have filled it, under its field, as n8n
 * shows an expression's result while it is typed: the text with the run's
 * values, and the references that found nothing in that run. Only for a
 * template with references, and only with a run to take values from.
 */
export function TemplatePreview({ template }: { template: string }) {
  const run = useAppStore((s) => (s.run?.status === 'running' ? undefined : s.run));
  const preview = useMemo(() => {
    if (!run || templateReferences(template).length === 0) return undefined;
    const used: UsedValues = {};
    const text = renderTemplate(template, runScope(run), used);
    // Each item's value is known only as the node runs for it: not something the run lacked.
    const isItem = (reference: string) => reference === 'item' || reference.startsWith('item.');
    const empty = Object.entries(used)
      .filter(([reference, value]) => value === null && !isItem(reference))
      .map(([reference]) => reference);
    return { text, empty, readsItem: Object.keys(used).some(isItem) };
  }, [run, template]);
  if (!run || !preview) return null;
  const { text, empty, readsItem } = preview;
  return (
    <div className="template-preview" aria-label="With the run's values">
      <small className="muted">With run {shortRunId(run.id)}&apos;s values:</small>
      <pre>{text.length > PREVIEW_CHARS ? `${cutText(text, PREVIEW_CHARS)}… (${text.length} characters)` : text}</pre>
      {readsItem && (
        <small className="muted">{'{{item}}'} is left empty here: each item fills it in as the node runs for it</small>
      )}
      {empty.length > 0 && (
        <small className="warning-text">
          Nothing in that run for {empty.map((reference) => `{{${reference}}}`).join(', ')}: it fills in empty
        </small>
      )}
    </div>
  );
}
