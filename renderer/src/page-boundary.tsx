import { Component, type ReactNode } from 'react';

/**
 * Around the pages loaded on first open: when a page's code cannot load (the
 * host stopped while the person navigated) or it throws while drawing, the app
 * says so on that page instead of going blank. React keeps a failed lazy
 * import, so trying again reloads the window.
 */
export class PageBoundary extends Component<{ children: ReactNode }, { error: Error | undefined }> {
  override state = { error: undefined as Error | undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main className="page-failed" role="alert">
        <h1>This page could not open</h1>
        <p>{error.message}</p>
        <p>Is the Flowbench app or `flowbench serve` still running?</p>
        <button onClick={() => location.reload()}>Try again</button>
      </main>
    );
  }
}
