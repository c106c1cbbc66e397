/** The app's pages, kept in the URL's hash so a reload or a link opens the same page. */
/** Pages that are one screen each, reached at `#/<page>`. */
export const SIMPLE_PAGES = ['providers', 'secrets', 'runs', 'servers', 'agents', 'connect'] as const;
export type SimplePage = (typeof SIMPLE_PAGES)[number];
export type Route = { page: 'home' } | { page: SimplePage } | { page: 'editor'; flowId: string };

export const routeFromHash = (): Route => {
  const simple = SIMPLE_PAGES.find((page) => location.hash === `#/${page}`);
  if (simple) return { page: simple };
  const match = /^#\/flow\/(.+)$/.exec(location.hash);
  return match?.[1] ? { page: 'editor', flowId: decodeURIComponent(match[1]) } : { page: 'home' };
};

/** The hash a route is kept at: what a link to it points to, and what navigating there sets. */
export const hashOf = (route: Route): string =>
  route.page === 'editor'
    ? `#/flow/${encodeURIComponent(route.flowId)}`
    : route.page !== 'home'
      ? `#/${route.page}`
      : '#/';
