import type { SecretStore } from './secrets';
/** What lists show of a flow, without loading its graph. */
export interface FlowSummary {
  id: string;
  name: string;
  description: string;
  toolName: string;
  enabled: boolean;
  /** The latest published version; absent when the flow was never published (no MCP client sees it). */
  publishedVersion?: number;
  /** The draft was edited after its latest version was published (always false when never published). */
  hasUnpublishedChanges: boolean;
  nodeCount: number;
  edgeCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface VersionSummary {
  flowId: string;
  version: number;
  note: string;
  toolName: string;
  nodeCount: number;
  createdAt: string;
}

export interface ProviderListing {
  name: string;
  kind: 'openai-compatible' | 'openai' | 'anthropic';
  url: string;
  defaultModel?: string;
  isDefault: boolean;
  /** One of the presets Flowbench knows without being told (ollama, lmstudio, openai, anthropic), left as it comes. */
  isPreset: boolean;
  /** Where the key comes from; never the key itself. */
  /** `settings`: Flowbench keeps one (`keyStore` says where); `environment`: the kind's variable. */
  apiKey: 'settings' | 'environment' | 'none';
  keyStore?: SecretStore;
  streaming: boolean;
}
