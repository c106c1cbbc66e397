import { FlowbenchError } from '../model/errors';
import type { ChannelSettings } from '../model/memory';
import { MAX_NOTE_CHARS } from '../model/notes';
import type { Parameter } from '../model/parameter';
import { AI_NODES, openAiKind } from './n8n-ai-nodes';
import { BASE_NODES } from './n8n-base-nodes';
import { CONDITIONS } from './n8n-conditions';
import { templateFrom, type ExpressionScope, type N8nData } from './n8n-expressions';
import {
  preview,
  readNode,
  uniqueNames,
  type ConvertContext,
  type Converted,
  type N8nNode,
  type NodeKind,
  type SubNodeKind,
} from './n8n-model';
import { addResults, edgesFrom, linksOf, PASS_THROUGH } from './n8n-graph';
import { backEdges, withLoops } from './n8n-loops';
import { nodeSettings } from './n8n-node-settings';
import { n8nNote } from './n8n-notes';
import { OTHER_TRIGGER, TRIGGERS } from './n8n-triggers';
import { asString, isRecord, nodeIdFactory, toolNameFrom, type ImportedFlow, type ImportProblem } from './shared';
import { ownEntry } from '../model/is-record';

/**
 * n8n workflows (the JSON n8n's "Download" and copy write: `nodes`, and
 * `connections` keyed by node name). Each main node becomes the Flowbench
 * node that does the same (a trigger the input node, an AI Agent an agent
 * with its model, MCP tools and memory folded in, an If a condition, an HTTP
 * Request an HTTP request node); its sub-nodes become its settings; sticky
 * notes stay notes; expressions that read a node's data become references.
 * Everything else (a node type, an option, a JavaScript expression) is kept
 * where it can be and said as a problem with where it is.
 */

const PACKAGES = /^(n8n-nodes-base|@n8n\/n8n-nodes-langchain)\./;
const STICKY = 'n8n-nodes-base.stickyNote';
/** n8n's langchain sub-node types, known even when nothing attaches them. */
const SUB_NODE =
  /^@n8n\/n8n-nodes-langchain\.(lm|memory|tool|outputParser|embeddings|vectorStore|document|textSplitter|retriever)/;
/** n8n's canvas packs nodes tighter than Flowbench's cards are wide. */
const SPREAD = 1.4;
/** How far below a node the nodes it takes after it (a Switch's rules) stand. */
const FOLLOWER_GAP = 140;

export function isN8nWorkflow(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    Array.isArray(value.nodes) &&
    isRecord(value.connections) &&
    value.nodes.some((node) => isRecord(node) && typeof node.type === 'string' && PACKAGES.test(node.type))
  );
}

const UNKNOWN: NodeKind = {
  data: (node) => ({ kind: 'none', why: `"${node.name}" (${node.type}) was not carried over` }),
  convert: (ctx) => {
    ctx.problem(
      `${ctx.node.type} has no Flowbench counterpart: it is an empty template here, kept for its place and connections; replace it (an HTTP request node calls most services' APIs, an MCP tool node an MCP server's tools)`,
    );
    return { type: 'template', config: { template: '' }, read: Object.keys(ctx.node.parameters) };
  },
};

function kindOf(node: N8nNode): NodeKind {
  return (
    ownEntry(TRIGGERS, node.type) ??
    ownEntry(AI_NODES, node.type) ??
    openAiKind(node) ??
    ownEntry(CONDITIONS, node.type) ??
    ownEntry(BASE_NODES, node.type) ??
    (/trigger$/i.test(node.type) ? OTHER_TRIGGER : UNKNOWN)
  );
}

/**
 * `results: false` for nodes pasted into a flow (n8n's copy writes the same
 * JSON): they join the flow's own output, so none is added after them.
 */
export function importN8nWorkflow(doc: Record<string, unknown>, options: { results?: boolean } = {}): ImportedFlow {
  const problems: ImportProblem[] = [];
  const rawNodes = Array.isArray(doc.nodes) ? doc.nodes : [];
  const read = rawNodes.map(readNode);
  read.forEach((node, i) => {
    if (!node)
      problems.push({
        code: 'IMPORT_PROBLEM',
        source: `nodes[${i}]`,
        message: 'this node has no name or type; it is left out',
      });
  });
  const { nodes: all, renamed } = uniqueNames(read.filter((n): n is N8nNode => n !== undefined));
  const byName = new Map(all.map((n) => [n.name, n]));
  const links = linksOf(isRecord(doc.connections) ? doc.connections : {}, problems, new Set(byName.keys()));
  // A langchain type named like a sub-node can be a step of its own: a vector store that inserts documents, a
  // Chat Memory Manager. Joined by main connections, it is one (kept in its place, said), not left out.
  const mainLinks = links.filter((l) => l.type === 'main');
  const onMain = new Set(mainLinks.flatMap((l) => [l.from, l.to]));
  const attaches = new Set(links.filter((l) => l.type.startsWith('ai_')).map((l) => l.from));
  const isSub = (node: N8nNode) => (SUB_NODE.test(node.type) && !onMain.has(node.name)) || attaches.has(node.name);
  const main = all.filter((n) => n.type !== STICKY && !isSub(n) && !PASS_THROUGH.has(n.type));
  if (main.length === 0) throw new FlowbenchError('VALIDATION_ERROR', 'the n8n workflow has no node Flowbench can run');

  const makeId = nodeIdFactory();
  const ids = new Map(main.map((n) => [n.name, makeId(n.name)]));
  // A sticky note's name is kept nowhere and joins nothing: one renamed changes nothing to say.
  for (const { node, was } of renamed.filter(({ node }) => node.type !== STICKY)) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      source: node.source,
      ...(ids.has(node.name) ? { nodeId: ids.get(node.name) } : {}),
      message: `n8n node "${was}": another node after it has the same name, and connections name the nodes they join, so they are read as the other one's; this one is kept as "${node.name}" with no connection: connect it or remove it`,
    });
  }
  const attached = (name: string) => (kind: SubNodeKind) =>
    links.filter((l) => l.type === kind && l.to === name).flatMap((l) => byName.get(l.from) ?? []);
  // The links that come back round a loop, found as withLoops finds the connections it makes loop edges.
  const loopBacks = new Set(
    [
      ...backEdges(
        all.map((n) => n.name),
        mainLinks.map((link) => ({ source: link.from, target: link.to, link })),
      ),
    ].map((edge) => edge.link),
  );
  /**
   * The links into a node, those that come back round a loop last: `$json` reads the item of the first
   * pass (a job's status polled reads the request that started the job, not the node itself).
   */
  const into = (name: string, input?: number) => {
    const found = mainLinks.filter((l) => l.to === name && (input === undefined || l.input === input));
    return [...found.filter((l) => !loopBacks.has(l)), ...found.filter((l) => loopBacks.has(l))];
  };
  const inputsOf = (name: string) => into(name).map((l) => l.from);

  // What `$json` reads in each node: the data of the node its first input comes from.
  const data = new Map<string, N8nData | undefined>();
  const dataOf = (name: string, seen = new Set<string>()): N8nData | undefined => {
    if (data.has(name)) return data.get(name);
    const node = byName.get(name);
    if (!node || seen.has(name) || isSub(node)) return undefined;
    seen.add(name);
    const [first] = inputsOf(name);
    const input = first === undefined ? undefined : dataOf(first, seen);
    const found = PASS_THROUGH.has(node.type)
      ? input
      : kindOf(node).data(node, ids.get(name) ?? '', input, attached(name));
    data.set(name, found);
    return found;
  };

  for (const node of all.filter((n) => isSub(n) && !links.some((l) => l.from === n.name))) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: node.source,
      message: `n8n node "${node.name}" (${node.type}) is attached to nothing; it is left out`,
    });
  }

  const channels = new Map<string, ChannelSettings>();
  const parameters = new Map<string, Parameter>();
  const nodes: Record<string, unknown>[] = [];
  const converted = new Map<string, Converted>();
  const followers = new Map<string, Map<string, string>>();
  /** The sub-nodes a converter took (a model, a tool, a memory). */
  const taken = new Set<string>();
  // A loop, not Math.min(...): a file of many nodes would pass more arguments than a call takes.
  const origin = all.reduce(
    (at, n) => {
      const [x, y] = positionOf(n);
      return { x: Math.min(at.x, x), y: Math.min(at.y, y) };
    },
    { x: Infinity, y: Infinity },
  );
  const place = (node: N8nNode) => {
    const [x, y] = positionOf(node);
    return { x: Math.round((x - origin.x) * SPREAD), y: Math.round((y - origin.y) * SPREAD) };
  };

  for (const node of main) {
    const id = ids.get(node.name) as string;
    const [first] = inputsOf(node.name);
    const scope: ExpressionScope = {
      input: first === undefined ? undefined : dataOf(first),
      named: (name) =>
        byName.has(name) ? (dataOf(name) ?? { kind: 'none', why: `"${name}" gives nothing to read here` }) : undefined,
    };
    const dataOfInput = (input: number) => {
      const from = into(node.name, input)[0]?.from;
      return from === undefined ? undefined : dataOf(from);
    };
    const at = (field: string) => ({ source: `${node.source}.parameters.${field}`, nodeId: id });
    const ctx: ConvertContext = {
      node,
      id,
      template: (value, field) => templateFrom(value, scope, at(field), problems),
      inputData: dataOfInput,
      templateOfInput: (input, value, field) =>
        templateFrom(value, { ...scope, input: dataOfInput(input) }, at(field), problems),
      attached: (kind, of = node) => {
        const found = attached(of.name)(kind);
        for (const sub of found) taken.add(sub.name);
        return found;
      },
      problem: (message, options = {}) => {
        const on = options.on ?? node;
        problems.push({
          code: 'IMPORT_PROBLEM',
          ...(options.severity ? { severity: options.severity } : {}),
          nodeId: id,
          source: `${on.source}${options.field ? `.parameters.${options.field}` : ''}`,
          message: `n8n node "${on.name}": ${message}`,
        });
      },
      channel: (settings) => channels.set(settings.id, settings),
    };
    const result = kindOf(node).convert(ctx);
    converted.set(node.name, result);
    for (const parameter of result.parameters ?? [])
      if (!parameters.has(parameter.name)) parameters.set(parameter.name, parameter);
    for (const [key, value] of Object.entries(node.parameters)) {
      if (result.read.includes(key) || value === '' || (isRecord(value) && Object.keys(value).length === 0)) continue;
      ctx.problem(`its setting ${key} (${preview(value)}) is not carried over`, { field: key, severity: 'warning' });
    }
    nodes.push({
      id,
      type: result.type,
      label: node.name,
      position: place(node),
      config: result.config,
      ...nodeSettings(
        node,
        result,
        ctx,
        (doc.pinData as Record<string, unknown> | undefined)?.[node.name],
        dataOf(node.name),
      ),
      metadata: { n8n: node.raw },
    });
    const own = new Map<string, string>();
    (result.followers ?? []).forEach((follower, k) => {
      const followerId = makeId(`${id}_${follower.suffix}`);
      own.set(follower.suffix, followerId);
      const { x, y } = place(node);
      nodes.push({
        id: followerId,
        type: follower.type,
        label: follower.label,
        position: { x, y: y + FOLLOWER_GAP * (k + 1) },
        config: follower.config,
      });
    });
    followers.set(node.name, own);
  }

  // A sub-node attached where nothing takes it (a tool on a chain, a model on an HTTP Request) is said, not dropped quietly.
  for (const link of links.filter((l) => l.type.startsWith('ai_') && !taken.has(l.from))) {
    const sub = byName.get(link.from);
    if (!sub || !isSub(sub)) continue;
    taken.add(sub.name);
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: sub.source,
      ...(ids.has(link.to) ? { nodeId: ids.get(link.to) } : {}),
      message: `n8n node "${sub.name}" (${sub.type}) is attached to "${link.to}" as its ${link.type.slice(3)}; ${ids.has(link.to) ? 'the Flowbench node that became takes none' : 'that node is not carried over'}, so it is left out`,
    });
  }
  const edges = withLoops(nodes, edgesFrom(links, byName, ids, converted, followers, problems), problems);
  if (options.results !== false) addResults(nodes, edges, converted, ids, main, makeId, problems);
  const stickies = all.filter((n) => n.type === STICKY);
  const notes = stickies.map((n, i) => n8nNote(n, `note_${i + 1}`, place(n), SPREAD));
  for (const sticky of stickies.filter((n) => asString(n.parameters.content).length > MAX_NOTE_CHARS))
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: `${sticky.source}.parameters.content`,
      message: `the sticky note "${sticky.name}" is cut at ${MAX_NOTE_CHARS} characters, the most a note holds`,
    });
  const settings = isRecord(doc.settings) ? doc.settings : {};
  if (typeof settings.errorWorkflow === 'string' && settings.errorWorkflow !== '')
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      source: 'settings.errorWorkflow',
      message: `the error workflow ${settings.errorWorkflow} is not carried over: a node's failure can run an error edge instead`,
    });

  const name = asString(doc.name, 'Imported n8n workflow').trim() || 'Imported n8n workflow';
  return {
    format: 'n8n',
    problems,
    flow: {
      schemaVersion: 1,
      name,
      description: '',
      tool: { name: toolNameFrom(name), description: '' },
      parameters: [...parameters.values()],
      nodes,
      edges,
      notes,
      ...(channels.size > 0 ? { memory: { channels: [...channels.values()] } } : {}),
      metadata: {
        n8n: Object.fromEntries(
          Object.entries(doc).filter(([key]) => !['nodes', 'connections', 'pinData'].includes(key)),
        ),
      },
    },
  };
}

function positionOf(node: N8nNode): [number, number] {
  const p = node.raw.position;
  return Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number' ? [p[0], p[1]] : [0, 0];
}
