/** The app's pages, kept in the URL's hash so a reload or a link opens the same page. */
export type Route = { page: 'home' } | { page: 'providers' } | { page: 'runs' } | { page: 'editor'; flowId: string };

export const routeFromHash = (): Route => {
  if (location.hash === '#/providers') return { page: 'providers' };
  if (location.hash === '#/runs') return { page: 'runs' };
  const match = /^#\/flow\/(.+)$/.exec(location.hash);
  return match?.[1] ? { page: 'editor', flowId: decodeURIComponent(match[1]) } : { page: 'home' };
};
