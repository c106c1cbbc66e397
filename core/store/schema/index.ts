export { flows } from './flows';
export { nodes } from './nodes';
export { edges } from './edges';
export { flowVersions } from './flow-versions';
export { snapshots } from './snapshots';
export { runs } from './runs';
export { runSteps } from './run-steps';
export { settings } from './settings';
export { agents, agentVersions } from './agents';
