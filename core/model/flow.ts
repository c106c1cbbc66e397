import { z } from 'zod';
import { MemorySettingsSchema } from './memory';
import { NODE_ID_PATTERN } from './ids';
import { NotesSchema } from './notes';
import { ParameterSchema } from './parameter';
import { PositionSchema } from './position';
import { TestCaseSchema } from './test-cases';

/** The native file format's version; bump it with a migration in formats/native. */
export const SCHEMA_VERSION = 1;

/** The longest text each of these fields takes: the schemas' limits, and the editor's fields' maxLength. */
export const TEXT_LIMITS = {
  nodeLabel: 200,
  flowName: 300,
  flowDescription: 4000,
  toolDescription: 4000,
  toolWhen: 2000,
} as const;

// The schemas of the flow model (here, in parameter.ts and change-set.ts) and of
// node configs are wrapped in z.lazy: each is built when first used, not when its
// module loads. The editor loads these modules while it opens a flow, and building
// schemas was most of their load time (and of the memory they allocate then).
export { PositionSchema };

export const ToolAnnotationsSchema = z.lazy(() =>
  z.object({
    title: z.string().max(200).optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  }),
);

/** Tool icons: small images, inline or on the web (MCP clients fetch https icons themselves). */
const MAX_ICON_CHARS = 140_000;
const ICON_PATTERN = /^(data:image\/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/=]+|https:\/\/\S+)$/;

/** How the flow is offered as an MCP tool. */
export const ToolSettingsSchema = z.lazy(() =>
  z.object({
    /** Checked against TOOL_NAME_PATTERN by validation, so a bad name is a listed problem. */
    name: z.string(),
    description: z.string().max(TEXT_LIMITS.toolDescription).default(''),
    whenToUse: z.string().max(TEXT_LIMITS.toolWhen).default(''),
    whenNotToUse: z.string().max(TEXT_LIMITS.toolWhen).default(''),
    enabled: z.boolean().default(true),
    annotations: ToolAnnotationsSchema.default({}),
    /** Shown by clients beside the tool: an image as a data: URI (PNG, JPEG, WebP, SVG) or an https:// URL. */
    icon: z
      .string()
      .max(MAX_ICON_CHARS, 'an icon is at most 100 KB')
      // '' in an edit removes the icon (change-set.ts).
      .regex(ICON_PATTERN, 'an icon is a data:image/png, jpeg, webp or svg+xml URI, or an https:// URL')
      .or(z.literal(''))
      .optional(),
  }),
);

export const NODE_ERROR_POLICIES = ['continue', 'fail'] as const;
export type NodeErrorPolicy = (typeof NODE_ERROR_POLICIES)[number];
export const MAX_LOOP_ITERATIONS = 1000;

/** Items of a node that runs for each item of a list that run at once, unless it says. */
export const DEFAULT_FOR_EACH_CONCURRENCY = 4;

/** FlowNode.forEach: the list a node runs over, and how many items at once. */
export const FlowNodeForEachSchema = z.lazy(() =>
  z.object({
    /** Empty while being written: a validation error (FOR_EACH) until it names a list. */
    items: z.string().max(2000),
    /** Items run at once (DEFAULT_FOR_EACH_CONCURRENCY when absent). */
    concurrency: z.number().int().min(1).max(20).optional(),
    /** `continue`: a failed item gives null in its place and the others go on (absent: it fails the node). */
    onItemError: z.literal('continue').optional(),
  }),
);

export const FlowNodeSchema = z.lazy(() =>
  z.object({
    id: z.string().regex(NODE_ID_PATTERN, 'a node id is a letter then up to 63 letters, digits, _ or -'),
    type: z.string().min(1),
    /** Version of the node type's config schema the config was written for. */
    version: z.number().int().min(1).default(1),
    label: z.string().max(TEXT_LIMITS.nodeLabel).default(''),
    position: PositionSchema.default({ x: 0, y: 0 }),
    config: z.record(z.string(), z.unknown()).default({}),
    /** Attempts before the node counts as failed (retryable failures only). */
    maxAttempts: z.number().int().min(1).max(10).optional(),
    /** Per-node time limit; the engine's default applies when absent. */
    timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
    /**
     * What the node's failure does to the run. Absent: the error edge runs when one is
     * connected and the run goes on, otherwise the run fails. `continue`: the run goes on
     * (without an error edge, what follows the node is skipped). `fail`: the run fails,
     * after the error edge's steps have run (seed 004's `onFailure: {next, fail: true}`).
     */
    onError: z.enum(NODE_ERROR_POLICIES).optional(),
    /**
     * Runs the node once for each item of a list (Rivet's split run, Dify's
     * iteration, n8n's items): `items` is a template that gives a list (a
     * JSON array); the node's fields read the item as `{{item}}`, and its
     * output is the list of what each item gave, in the items' order.
     */
    forEach: FlowNodeForEachSchema.optional(),
    /**
     * Deactivated, as n8n's D: runs pass over the node, which hands on what
     * came into it (its first live input's output) instead of running.
     */
    disabled: z.literal(true).optional(),
    /**
     * A pinned output, as n8n's pinned data: runs a person starts (the editor,
     * `flowbench run`) take it instead of running the node; clients' calls and
     * test cases run the node.
     */
    pin: z.object({ output: z.json() }).optional(),
    /** Fields of an imported format that Flowbench does not use, kept for export. */
    metadata: z.record(z.string(), z.json()).optional(),
  }),
);

export const FlowEdgeSchema = z.lazy(() =>
  z.object({
    id: z.string().min(1).max(128),
    source: z.string().min(1),
    sourcePort: z.string().min(1).default('out'),
    target: z.string().min(1),
    targetPort: z.string().min(1).default('in'),
    /**
     * A loop edge goes back to an earlier node: following it runs the nodes from its target
     * to its source again, at most `maxIterations` passes in all (the first included);
     * wanting one more pass is the source's error LOOP_LIMIT.
     */
    loop: z.object({ maxIterations: z.number().int().min(2).max(MAX_LOOP_ITERATIONS) }).optional(),
    /** Fields of an imported format that Flowbench does not use, kept for export. */
    metadata: z.record(z.string(), z.json()).optional(),
  }),
);

/** A whole flow as the native format stores it and the API passes it around. */
export const FlowSchema = z.lazy(() =>
  z.object({
    schemaVersion: z.literal(SCHEMA_VERSION).default(SCHEMA_VERSION),
    id: z.string().min(1).max(128),
    name: z.string().trim().min(1, 'a flow needs a name').max(TEXT_LIMITS.flowName),
    description: z.string().max(TEXT_LIMITS.flowDescription).default(''),
    tool: ToolSettingsSchema,
    parameters: z.array(ParameterSchema).default([]),
    nodes: z.array(FlowNodeSchema),
    edges: z.array(FlowEdgeSchema).default([]),
    /** Fields kept from an imported format so that exporting back loses nothing. */
    metadata: z.record(z.string(), z.json()).default({}),
    /** Named inputs with expectations, run by "Run all" and `flowbench test`. */
    tests: z.array(TestCaseSchema).max(500).default([]),
    /** Publishing (editor and CLI) first runs the test cases and refuses when one fails. */
    testsGatePublish: z.boolean().default(false),
    /** Memory channels the flow's nodes read and write, and how long each keeps its entries. */
    memory: MemorySettingsSchema.default({ channels: [] }),
    /** Sticky notes on the canvas (model/notes.ts): for people, not for runs. */
    notes: NotesSchema.default([]),
  }),
);

export type Position = z.infer<typeof PositionSchema>;
export type ToolSettings = z.infer<typeof ToolSettingsSchema>;
export type FlowNode = z.infer<typeof FlowNodeSchema>;
/** What a pin holds: a node's output, JSON (a step's output is stored as such). */
export type PinnedOutput = NonNullable<FlowNode['pin']>['output'];
export type FlowEdge = z.infer<typeof FlowEdgeSchema>;
export type Flow = z.infer<typeof FlowSchema>;
/** What callers may pass before defaults are filled in. */
export type FlowInput = z.input<typeof FlowSchema>;
