import { useEffect, useMemo, useState } from 'react';
import type { KnownOutput } from '../../../core/editing/output-fields';
import type { Flow } from '../../../core/model/flow';
import { nodeRegistry } from '../../../core/nodes/registry';
import { outputSchemaFor } from '../../../core/nodes/tool-schema';
import { api } from '../api/client';
import { useAppStore } from '../store/app-store';
import { finishedOutputs } from '../store/run-slice';
import { flowOnCanvas } from '../store/versions-slice';
import { serverTools } from './suggestions';

/**
 * What the editor knows of each node's output besides its config, for the
 * inspector's offers of fields inside outputs: what the node calls declares
 * of its result (an MCP tool's outputSchema, a published flow's structured
 * result), and what it gave in the run shown once that has ended.
 */
export function useKnownOutputs(isWanted: boolean): (nodeId: string) => KnownOutput {
  const endedRun = useAppStore((s) => (s.run && s.run.status !== 'running' ? s.run.id : undefined));
  const seen = useMemo(() => finishedOutputs(endedRun ? useAppStore.getState().run : undefined), [endedRun]);
  // Asked only while a node is being edited: reading a tool's schema connects to its server.
  const flow = useAppStore(flowOnCanvas);
  const declared = useDeclaredOutputs(isWanted ? flow : undefined);
  return useMemo(
    () => (nodeId: string) => ({ declared: declared.get(nodeId), seen: seen.get(nodeId) }),
    [seen, declared],
  );
}

/** What a node returning its callee's result calls, as a key: `tool␟server␟name` or `flow␟ref`. */
function calleeKey(node: Flow['nodes'][number]): string | undefined {
  if (!nodeRegistry.get(node.type)?.returnsCallee) return undefined;
  const [callee] = nodeRegistry.callees(node);
  if (callee?.kind === 'tool') return ['tool', callee.server, callee.tool].join('\u241f');
  if (callee?.kind === 'flow') return ['flow', callee.ref].join('\u241f');
  return undefined;
}

/** The result schema of each callee, by node id; read again only when what the nodes call changes. */
function useDeclaredOutputs(flow: Flow | undefined): ReadonlyMap<string, unknown> {
  const [schemas, setSchemas] = useState<ReadonlyMap<string, unknown>>(new Map());
  // One string for what every calling node calls: edits elsewhere in the flow ask nothing again.
  const calls = useMemo(() => {
    const keyed = (flow?.nodes ?? []).flatMap((n) => {
      const key = calleeKey(n);
      return key ? [`${n.id}\u241e${key}`] : [];
    });
    return keyed.join('\u241d');
  }, [flow]);
  useEffect(() => {
    let isCurrent = true;
    setSchemas(new Map());
    const pairs = calls ? calls.split('\u241d').map((pair) => pair.split('\u241e') as [string, string]) : [];
    // Each as it comes: a flow's schema is not kept waiting on a tool server that takes seconds to start.
    for (const [nodeId, key] of pairs) {
      void resultSchema(key).then((schema) => {
        if (isCurrent && schema !== undefined) setSchemas((known) => new Map(known).set(nodeId, schema));
      });
    }
    return () => {
      isCurrent = false;
    };
  }, [calls]);
  return schemas;
}

/** A callee's result schema; none when it declares none or cannot be reached (the offers are a help, not a check). */
async function resultSchema(key: string): Promise<unknown> {
  const [kind, first = '', second = ''] = key.split('\u241f');
  try {
    if (kind === 'tool') return (await serverTools(first)).find((t) => t.name === second)?.outputSchema;
    const called = (await api.flows.list({})).find((f) => f.id === first || f.toolName === first || f.name === first);
    if (!called?.publishedVersion) return undefined;
    return outputSchemaFor(await api.flows.version({ id: called.id, version: called.publishedVersion }));
  } catch {
    return undefined;
  }
}
