import { useEffect, useId, useState } from 'react';
import { toFlowbenchError } from '../../../core/model/errors';
import { FLOWBENCH_SERVER } from '../../../core/model/tools';
import { suggestionsFor, toolsOffered, type OfferedTool } from './suggestions';

/** A tool an agent may call: a connected server's, or a published flow (server "flowbench"); server empty: any server's. */
export interface ToolRef {
  server: string;
  tool: string;
}

/** Whether `ref` names `tool` of `server`: a bare name counts, since it is looked up on every server. */
const names = (ref: ToolRef, server: string, tool: string) =>
  ref.tool === tool && (ref.server === server || (ref.server === '' && server !== FLOWBENCH_SERVER));

/**
 * An agent's tools ticked off a server's list, as Flowise's MCP tools offer
 * their actions and n8n's MCP Client its tools: a server is chosen, its tools
 * are listed with what each does, and ticking one adds it (server and name,
 * never mistyped); unticking takes it out. Listing a server's tools connects
 * to it, so only the chosen server is listed. Tools typed by hand stay rows of
 * their own, whether or not a server offers them.
 */
export function ToolChecklist({
  chosen,
  onChange,
}: {
  chosen: readonly ToolRef[];
  onChange: (next: ToolRef[]) => void;
}) {
  const id = useId();
  const [servers, setServers] = useState<readonly string[] | undefined>(undefined);
  const [server, setServer] = useState('');
  const [offered, setOffered] = useState<OfferedTool[] | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    let isCurrent = true;
    void suggestionsFor('servers', '').then((list) => isCurrent && setServers(list));
    return () => {
      isCurrent = false;
    };
  }, []);
  useEffect(() => {
    let isCurrent = true;
    setOffered(undefined);
    setProblem(undefined);
    if (server)
      void toolsOffered(server).then(
        (list) => isCurrent && setOffered(list),
        // Said, not an empty list: a server that does not start is why nothing is offered.
        (error: unknown) => isCurrent && setProblem(toFlowbenchError(error).message),
      );
    return () => {
      isCurrent = false;
    };
  }, [server]);

  const toggle = (tool: string, isOn: boolean) => {
    if (!isOn) return onChange(chosen.filter((ref) => !names(ref, server, tool)));
    // A row added empty (Add tool, nothing typed yet) makes way for the tool ticked.
    const kept = chosen.filter((ref) => ref.server.trim() !== '' || ref.tool.trim() !== '');
    onChange([...kept, { server, tool }]);
  };
  return (
    <div className="tool-checklist" role="group" aria-label="Choose tools from a server">
      <label className="field" htmlFor={`${id}-server`}>
        <span className="field-label">Choose from</span>
        <select id={`${id}-server`} value={server} onChange={(e) => setServer(e.target.value)}>
          <option value="">{servers === undefined ? 'listing servers…' : 'a server…'}</option>
          {servers?.map((name) => (
            <option key={name} value={name}>
              {name === FLOWBENCH_SERVER ? `${name} (published flows)` : name}
            </option>
          ))}
        </select>
      </label>
      {server && !offered && !problem && <p className="muted">Listing the tools of {server}…</p>}
      {problem && (
        <p className="error" role="alert">
          Could not list the tools of {server}: {problem}
        </p>
      )}
      {offered?.length === 0 && (
        <p className="muted">
          {server === FLOWBENCH_SERVER ? 'No flow is published yet.' : `${server} offers no tools.`}
        </p>
      )}
      {offered && offered.length > 0 && (
        <ul aria-label={`Tools of ${server}`}>
          {offered.map((tool) => (
            <li key={tool.name}>
              <label className="inline">
                <input
                  type="checkbox"
                  checked={chosen.some((ref) => names(ref, server, tool.name))}
                  onChange={(e) => toggle(tool.name, e.target.checked)}
                />
                <code>{tool.name}</code>
                {tool.description && (
                  <span className="muted" title={tool.description}>
                    {tool.description}
                  </span>
                )}
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
