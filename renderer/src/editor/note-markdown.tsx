import Markdown, { type Components } from 'react-markdown';

/**
 * A note's text as Markdown (headings, lists, emphasis, code, links), as n8n
 * shows its sticky notes. Raw HTML in the text is not rendered and unsafe
 * link targets are dropped (react-markdown's defaults). Links open outside
 * the editor: a new tab in a browser, the system browser in the desktop app.
 */
const components: Components = {
  a: ({ node: _, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
};

export default function NoteMarkdown({ text }: { text: string }) {
  return <Markdown components={components}>{text}</Markdown>;
}
