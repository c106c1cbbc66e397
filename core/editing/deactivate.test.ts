import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invertChangeSet, ChangeSetSchema } from '../model/change-set';
import { smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { join } from 'node:path';
import { openDatabase, type FlowbenchDatabase } from '../store/database';
import { FlowRepository } from '../store/flow-repository';
import { toggleDeactivatedChange } from './deactivate';
import { publishWarnings } from '../model/publish-warnings';
import { nodeRegistry } from '../nodes/registry';
import { exportFlowText, leftOutOf } from '../formats/export';

const tempDir = useTempDir();
let store: FlowbenchDatabase;
let flows: FlowRepository;
beforeEach(() => {
  store = openDatabase(join(tempDir(), 'flows.db'));
  flows = new FlowRepository(store);
  flows.create(smallFlow());
});
afterEach(() => store.close());

const disabledColumn = () => store.sqlite.prepare(`SELECT disabled FROM nodes WHERE id = 'greet'`).pluck().get();

describe('deactivating nodes (D)', () => {
  it('is stored on the node, undone by the inverse change, and activated again by a second D', () => {
    const before = flows.get('small');
    // The input and output nodes always run: D leaves them as they are.
    const change = ChangeSetSchema.parse(toggleDeactivatedChange(before, ['input', 'greet', 'result']));
    expect(change.updateNodes).toEqual([{ id: 'greet', disabled: true }]);
    flows.applyChanges('small', change);
    expect(flows.get('small').nodes.find((n) => n.id === 'greet')?.disabled).toBe(true);
    expect(disabledColumn()).toBe(1);

    flows.applyChanges('small', invertChangeSet(before, change));
    expect(flows.get('small').nodes.find((n) => n.id === 'greet')).not.toHaveProperty('disabled');
    expect(disabledColumn()).toBeNull();

    flows.applyChanges('small', change);
    const again = ChangeSetSchema.parse(toggleDeactivatedChange(flows.get('small'), ['greet']));
    expect(again.updateNodes).toEqual([{ id: 'greet', disabled: null }]);
    flows.applyChanges('small', again);
    expect(flows.get('small').nodes.find((n) => n.id === 'greet')).not.toHaveProperty('disabled');
    expect(toggleDeactivatedChange(flows.get('small'), ['input', 'result'])).toBeUndefined();
  });

  it('is said when publishing, and by an export to a format that cannot say it (the node would run there)', () => {
    const flow = flows.get('small');
    flows.applyChanges('small', ChangeSetSchema.parse(toggleDeactivatedChange(flow, ['greet'])));
    const now = flows.get('small');
    expect(publishWarnings(now, nodeRegistry)).toContainEqual({
      message: 'node "greet" is deactivated: clients\' calls pass over it',
      nodeId: 'greet',
    });
    expect(leftOutOf(now, 'workflow')).toEqual(['the deactivation of node "greet" (it runs there)']);
    expect(leftOutOf(now, 'native')).toEqual([]);
    expect((JSON.parse(exportFlowText(now, 'native')) as { nodes: unknown[] }).nodes[1]).toMatchObject({
      id: 'greet',
      disabled: true,
    });
  });

  it('a pinned output is stored as JSON, taken back by the inverse change, said when publishing and exporting', () => {
    const before = flows.get('small');
    const pin = { output: { summary: 'pinned', items: [1, 2] } };
    const change = ChangeSetSchema.parse({ updateNodes: [{ id: 'greet', pin }] });
    flows.applyChanges('small', change);
    const pinned = flows.get('small');
    expect(pinned.nodes.find((n) => n.id === 'greet')?.pin).toEqual(pin);
    expect(publishWarnings(pinned, nodeRegistry)).toContainEqual({
      message: 'node "greet" has a pinned output: clients\' calls run the node, not the pin',
      nodeId: 'greet',
    });
    expect(leftOutOf(pinned, 'workflow')).toEqual(['the pinned output of node "greet"']);
    flows.applyChanges('small', invertChangeSet(before, change));
    expect(flows.get('small').nodes.find((n) => n.id === 'greet')).not.toHaveProperty('pin');
  });
});
