import { FlowbenchError } from '../../core/model/errors';
import type { LlmPort } from '../../core/model/llm';
import { createAiSdkPort } from '../../core/providers/ai-sdk-port';
import type { ProviderConfig } from '../../core/model/provider-config';

/** The real AI SDK provider code, pointed at a test server as the `test` provider (also the default). */
export function testLlm(url: string, extra: Partial<ProviderConfig> = {}): LlmPort {
  const config: ProviderConfig = {
    name: 'test',
    kind: 'openai-compatible',
    baseUrl: url,
    defaultModel: 'test-model',
    streaming: true,
    ...extra,
  };
  return createAiSdkPort((name) => {
    if (name === '' || name === 'test') return config;
    throw new FlowbenchError('PROVIDER_NOT_FOUND', `no provider "${name}"`);
  }, {});
}
