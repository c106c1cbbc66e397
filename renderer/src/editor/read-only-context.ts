import { createContext } from 'react';

/**
 * True while the inspector shows a node of a past run's flow or of a published
 * version: its fields show that node's settings and take no typing. Native
 * fields go with the inspector's disabled fieldset; CodeMirror editors read this.
 */
export const ReadOnlyContext = createContext(false);
