import type { Plugin } from 'vite';

/**
 * The entry (src/main.tsx) imports the app with `import('./start')`, so it can
 * ask for the flow before the app's code runs. Vite only preloads a dynamic
 * import's chunks once that import is reached; this plugin lists them in
 * index.html too, so the browser fetches and compiles them while the entry
 * runs instead of after it.
 */
export function preloadAppChunks(entry = '/src/start.tsx'): Plugin {
  return {
    name: 'flowbench-preload-app-chunks',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle || !context.filename.endsWith('index.html')) return [];
        const app = Object.values(bundle).find((item) => item.type === 'chunk' && item.facadeModuleId?.endsWith(entry));
        if (!app) throw new Error(`preloadAppChunks: no chunk for ${entry} in the build`);
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (files.has(fileName) || chunk?.type !== 'chunk') return;
          files.add(fileName);
          for (const imported of chunk.imports) visit(imported);
        };
        visit(app.fileName);
        // The entry and what it already preloads are in the page: no second tag.
        return [...files]
          .filter((file) => !html.includes(file))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: '', href: `./${file}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}
