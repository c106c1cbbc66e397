import { useState } from 'react';
import { readCurl } from '../../../core/editing/curl';
import type { FlowNode } from '../../../core/model/flow';
import { useAppStore } from '../store/app-store';
import { useKeptState } from '../use-kept-state';

/**
 * n8n's Import cURL for an HTTP request node: a command copied from a
 * browser's network tab or an API's docs fills in the method, URL, query
 * parameters, headers and body in one edit (one Undo), and says what it left out or changed.
 */
export function CurlImport({ node }: { node: FlowNode }) {
  const [text, setText] = useKeptState(`curl-${node.id}`, '');
  const [said, setSaid] = useState<{ problem?: string; lines: string[] } | undefined>(undefined);
  const fill = () => {
    const reading = readCurl(text);
    if ('problem' in reading) return setSaid({ problem: reading.problem, lines: [] });
    // The command says the whole request, its query included: the node's own Query parameters are replaced.
    const config = { ...node.config, ...reading.request };
    useAppStore.getState().updateNode(node.id, { config }, `${node.id}.config.curl`);
    setText('');
    setSaid({
      lines: [
        ...reading.leftOut.map((line) => `Left out ${line}`),
        ...reading.notes,
        ...(reading.leftOut.length + reading.notes.length === 0 ? ['Filled in from the command.'] : []),
      ],
    });
  };
  return (
    <details className="curl-import">
      <summary>Paste a cURL command…</summary>
      <label className="field" htmlFor={`curl-${node.id}`}>
        <span className="field-label">A browser&apos;s Copy as cURL, or an API&apos;s example</span>
        <textarea
          id={`curl-${node.id}`}
          rows={4}
          value={text}
          spellCheck={false}
          placeholder={'curl https://api.example/v1/items -H "Authorization: Bearer $TOKEN"'}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="button" disabled={text.trim() === ''} onClick={fill}>
        Fill in the request
      </button>
      {said && (
        <div role="status" className="curl-said">
          {said.problem && <p className="error">{said.problem}</p>}
          {said.lines.length > 0 && (
            <ul>
              {said.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </details>
  );
}
