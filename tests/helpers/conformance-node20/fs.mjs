export * from 'node:fs';
export { default } from 'node:fs';

export function globSync(pattern) {
  throw new Error(`fs.globSync(${JSON.stringify(pattern)}) needs Node 22; the server scenarios run here do not use it`);
}
