import { describe, expect, it } from 'vitest';
import { echoFlow } from '../../tests/fixtures/mcp-flows';
import { applyChangeSet, ChangeSetSchema, invertChangeSet } from '../model/change-set';
import { FlowSchema, type Flow } from '../model/flow';
import { toolFor } from '../nodes/tool-schema';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const flowWith = (icon?: string): Flow =>
  FlowSchema.parse({ ...echoFlow, id: 'echo', tool: { ...echoFlow.tool, ...(icon !== undefined ? { icon } : {}) } });

describe("a flow's tool icon", () => {
  it('is listed as the MCP tool’s icon, with its type', () => {
    expect(toolFor(flowWith(PNG)).icons).toEqual([{ src: PNG, mimeType: 'image/png' }]);
    expect(toolFor(flowWith('https://example.com/icon.svg')).icons).toEqual([{ src: 'https://example.com/icon.svg' }]);
    expect(toolFor(flowWith())).not.toHaveProperty('icons');
  });

  it('refuses what is not an image or a secure URL', () => {
    for (const icon of [
      'javascript:alert(1)',
      'http://example.com/i.png',
      'data:text/html;base64,PGI+',
      'x'.repeat(10),
    ]) {
      expect(FlowSchema.safeParse({ ...echoFlow, id: 'echo', tool: { ...echoFlow.tool, icon } }).success).toBe(false);
    }
  });

  it('an edit sets it, another removes it, and undoing the first takes it away', () => {
    const before = flowWith();
    const add = ChangeSetSchema.parse({ flow: { tool: { icon: PNG } } });
    const added = applyChangeSet(before, add);
    expect(added.tool.icon).toBe(PNG);
    expect(applyChangeSet(added, invertChangeSet(before, add)).tool).not.toHaveProperty('icon');
    expect(applyChangeSet(added, ChangeSetSchema.parse({ flow: { tool: { icon: '' } } })).tool).not.toHaveProperty(
      'icon',
    );
  });
});
