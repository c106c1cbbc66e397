import { describe, expect, it } from 'vitest';
import type { FlowNode } from './flow';
import { mergeNodeUpdate, nodeUpdateBase, rebaseNode } from './node-merge';

const started = { prompt: 'Summarise {{inputs.topic}}', temperature: 0.7, model: 'gpt' };
/** The node as stored at revision 2: another window changed its temperature and label since revision 1. */
const stored: FlowNode & { rev: number } = {
  id: 'ask',
  type: 'llm',
  version: 1,
  label: 'Ask (cooler)',
  position: { x: 0, y: 0 },
  config: { ...started, temperature: 0.2 },
  rev: 2,
};

describe('mergeNodeUpdate', () => {
  it('keeps the settings another window changed and takes the ones this edit changed', () => {
    const update = {
      id: 'ask',
      rev: 1,
      config: { ...started, prompt: 'Summarise {{inputs.topic}} in French' },
      maxAttempts: 3,
      base: { config: started, maxAttempts: null },
    };
    expect(mergeNodeUpdate(stored, update)).toEqual({
      id: 'ask',
      rev: 1,
      config: { prompt: 'Summarise {{inputs.topic}} in French', temperature: 0.2, model: 'gpt' },
      maxAttempts: 3,
    });
  });

  it('leaves a setting this edit did not change as stored, and takes the same change made on both sides', () => {
    const config = { ...started, temperature: 0.2, prompt: 'Shorter' };
    const update = { id: 'ask', rev: 1, label: 'Ask', config };
    expect(mergeNodeUpdate(stored, { ...update, base: { label: 'Ask', config: started } })).toEqual({
      id: 'ask',
      rev: 1,
      config,
    });
    // Nothing left of this edit: nothing to write.
    expect(mergeNodeUpdate(stored, { ...update, config: started, base: { label: 'Ask', config: started } })).toEqual({
      id: 'ask',
      rev: 1,
    });
  });

  it('keeps keys added or removed on either side', () => {
    const theirs = { ...stored, config: { prompt: started.prompt, model: 'gpt', maxTokens: 50 } };
    const update = { id: 'ask', config: { ...started, topP: 0.9 }, base: { config: started } };
    expect(mergeNodeUpdate(theirs, update).config).toEqual({
      prompt: started.prompt,
      model: 'gpt',
      maxTokens: 50,
      topP: 0.9,
    });
  });

  it('refuses a setting both changed differently, naming it', () => {
    const update = { id: 'ask', rev: 1, config: { ...started, temperature: 1 }, base: { config: started } };
    expect(() => mergeNodeUpdate(stored, update)).toThrow(
      expect.objectContaining({
        code: 'EDIT_CONFLICT',
        message:
          'node "ask" was changed elsewhere (revision 2, edit based on 1): its setting "temperature" was changed by both; reload to see it',
        data: { nodeId: 'ask', rev: 2, field: 'setting "temperature"' },
      }),
    );
    expect(() => mergeNodeUpdate(stored, { id: 'ask', rev: 1, label: 'Mine', base: { label: 'Ask' } })).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: expect.objectContaining({ field: 'label' }) }),
    );
  });

  it('checks a setting sent without its base by the revision, as an update without any base is', () => {
    const update = { id: 'ask', rev: 1, config: started, label: 'Mine', base: { config: started } };
    expect(() => mergeNodeUpdate(stored, update)).toThrow(
      expect.objectContaining({
        code: 'EDIT_CONFLICT',
        message: 'node "ask" was changed elsewhere (revision 2, edit based on 1); reload to see it',
      }),
    );
    expect(mergeNodeUpdate(stored, { ...update, rev: 2 })).toEqual({ id: 'ask', rev: 2, label: 'Mine' });
  });

  it('compares configs as the node type reads them, so a default the host filled in is no change', () => {
    const filled = { ...stored, config: { ...stored.config, outputFormat: 'text' } };
    const normalize = (config: Record<string, unknown>) => ({ outputFormat: 'text', ...config });
    const update = { id: 'ask', config: { ...started, outputFormat: 'json' }, base: { config: started } };
    expect(mergeNodeUpdate(filled, update, normalize).config).toEqual({ ...filled.config, outputFormat: 'json' });
    expect(() => mergeNodeUpdate(filled, update)).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
  });

  it('merges a list both changed item by item, and refuses it naming the setting where the changes overlap', () => {
    const field = (name: string, description = '') => ({ name, value: `{{nodes.ask.output.${name}}}`, description });
    const fields = [field('city'), field('country')];
    const output = {
      ...stored,
      id: 'result',
      type: 'output',
      config: { fields: [field('city', 'Where'), field('country')] },
    };
    const update = { id: 'result', rev: 1, config: { fields: [field('city'), field('country', 'Which')] } };
    expect(mergeNodeUpdate(output, { ...update, base: { config: { fields } } }).config).toEqual({
      fields: [field('city', 'Where'), field('country', 'Which')],
    });
    const overlapping = { ...update, config: { fields: [field('city', 'Which city')] } };
    expect(() => mergeNodeUpdate(output, { ...overlapping, base: { config: { fields } } })).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: expect.objectContaining({ field: 'setting "fields"' }) }),
    );
  });

  it('merges a prompt of several lines both changed line by line, and refuses one changed in the same line', () => {
    const prompt = ['You answer support tickets.', 'Be brief.', '', '{{inputs.ticket}}'].join('\n');
    const theirs = { ...stored, config: { ...started, prompt: prompt.replace('Be brief.', 'Be brief and kind.') } };
    const mine = { ...started, prompt: `${prompt}\nSign as Ana.` };
    expect(
      mergeNodeUpdate(theirs, { id: 'ask', rev: 1, config: mine, base: { config: { ...started, prompt } } }),
    ).toMatchObject({
      config: {
        prompt: ['You answer support tickets.', 'Be brief and kind.', '', '{{inputs.ticket}}', 'Sign as Ana.'].join(
          '\n',
        ),
      },
    });
    const sameLine = { ...started, prompt: prompt.replace('Be brief.', 'Be short.') };
    expect(() =>
      mergeNodeUpdate(theirs, { id: 'ask', rev: 1, config: sameLine, base: { config: { ...started, prompt } } }),
    ).toThrow(
      expect.objectContaining({ code: 'EDIT_CONFLICT', data: expect.objectContaining({ field: 'setting "prompt"' }) }),
    );
    // A text of one line is one value: both changing it is a conflict, as before.
    const oneLine = { ...started, prompt: 'Summarise {{inputs.topic}} briefly' };
    expect(() =>
      mergeNodeUpdate(
        { ...stored, config: { ...started, prompt: 'Summarise {{inputs.topic}} now' } },
        {
          id: 'ask',
          config: oneLine,
          base: { config: started },
        },
      ),
    ).toThrow(expect.objectContaining({ code: 'EDIT_CONFLICT' }));
  });

  it('merges configs of different versions whole', () => {
    const migrated = { ...stored, version: 2, config: { question: 'Summarise', temperature: 0.2 } };
    const update = { id: 'ask', config: { ...started, model: 'claude' }, base: { config: started, version: 1 } };
    expect(() => mergeNodeUpdate(migrated, update)).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: 'settings' }) }),
    );
    expect(mergeNodeUpdate(migrated, { ...update, config: started })).toEqual({ id: 'ask' });
  });
});

describe('nodeUpdateBase', () => {
  it('takes the value of each setting the update sets, an unset one as null, and the config with its version', () => {
    const node: FlowNode = { ...stored, maxAttempts: 2 };
    expect(nodeUpdateBase(node, { id: 'ask', config: {}, timeoutMs: 5000, maxAttempts: null })).toEqual({
      config: node.config,
      version: 1,
      timeoutMs: null,
      maxAttempts: 2,
    });
    expect(nodeUpdateBase(node, { id: 'ask', position: { x: 1, y: 1 } })).toEqual({});
  });
});

describe('rebaseNode', () => {
  const sent: FlowNode = { ...stored, label: 'Ask', config: { ...started, prompt: 'In French' } };
  const host: FlowNode = { ...stored, config: { ...started, prompt: 'In French', temperature: 0.2 } };

  it("shows what the host took from another window's edit, and names it", () => {
    expect(rebaseNode(sent, sent, host)).toEqual({ node: host, taken: ['label', 'temperature'] });
  });

  it('keeps what this window changed again since, which its next save merges', () => {
    const shown = { ...sent, label: 'Ask again', config: { ...sent.config, temperature: 1, topP: 0.5 } };
    expect(rebaseNode(shown, sent, host)).toEqual({ node: shown, taken: [] });
  });
});
