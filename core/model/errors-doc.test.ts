import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors';
import { PROBLEM_CODES } from './problems';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'errors.md'), 'utf8');
const [errorsPart = '', problemsPart = ''] = doc.split('## Validation problem codes');

describe('docs/errors.md', () => {
  it('documents every error code and every problem code', () => {
    expect(Object.keys(ERROR_CODES).filter((code) => !errorsPart.includes(`| \`${code}\``))).toEqual([]);
    expect(Object.keys(PROBLEM_CODES).filter((code) => !problemsPart.includes(`| \`${code}\``))).toEqual([]);
  });
});
