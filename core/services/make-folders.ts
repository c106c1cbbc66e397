// For the layers above the store (the host, the app): the same `mkdir -p`, which does not hang under /proc.
export { makeFolders } from '../store/make-folders';
