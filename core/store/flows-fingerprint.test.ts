import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentSettingsSchema } from '../model/agents';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { finishedRunWrites } from '../../tests/helpers/run-writes';
import { useTempDir } from '../../tests/helpers/temp';
import { openServices } from '../services/open-services';
import { prepareRunStatements, runEach } from './run-batches';
import { RUN_STATEMENTS } from './run-statements';

const tempDir = useTempDir();
const GREETER = greeterFlow().id;

describe('flows fingerprint (what serve compares to tell open editors whether flows changed)', () => {
  it('moves with every change to flows, their nodes, edges and versions, and agents; not with runs stored', () => {
    const services = openServices(join(tempDir(), 'fingerprint.db'));
    try {
      const { flows } = services;
      const changes: [string, () => unknown][] = [
        ['a flow created', () => flows.create(greeterFlow())],
        ['a node renamed', () => flows.applyChanges(GREETER, { updateNodes: [{ id: 'greet', label: 'Hi' }] })],
        ['an edge removed', () => flows.applyChanges(GREETER, { removeEdges: [greeterFlow().edges[0]!.id] })],
        ['a version published', () => services.versions.publish(GREETER)],
        ['its tool switched off', () => flows.setEnabled(GREETER, false)],
        ['an agent created', () => services.agents.create({ name: 'Writer', draft: AgentSettingsSchema.parse({}) })],
        ['an agent published', () => services.agents.publish('Writer')],
        ['a flow deleted', () => flows.delete(GREETER)],
      ];
      for (const [what, change] of changes) {
        const before = flows.fingerprint();
        change();
        expect(flows.fingerprint(), what).not.toBe(before);
      }
      flows.create(greeterFlow());
      const before = flows.fingerprint();
      const flow = flows.get(GREETER);
      const statements = prepareRunStatements(services.database.sqlite, RUN_STATEMENTS);
      expect(runEach(statements, finishedRunWrites(flow, 'run-1', Date.now()))).toEqual([]);
      expect(services.database.sqlite.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(1);
      expect(flows.fingerprint()).toBe(before);
    } finally {
      services.close();
    }
  });
});
