import { nodeRegistry } from '../../core/nodes/registry';

/** The app shell. The editor (canvas, inspector, run panel) grows from here. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Flowbench</h1>
      <p>Node types available in this build:</p>
      <ul>
        {nodeRegistry.all().map((definition) => (
          <li key={definition.type}>
            <strong>{definition.label}</strong> — {definition.description}
          </li>
        ))}
      </ul>
    </main>
  );
}
