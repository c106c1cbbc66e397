import { describe, expect, it } from 'vitest';
import { modelIdsOf, notAModelList } from './model-list';

describe("a provider's model list", () => {
  it('reads the ids of OpenAI and Anthropic lists, leaving out entries without a text id', () => {
    expect(modelIdsOf('{"object": "list", "data": [{"id": "gpt-4o"}, {"id": "o3"}]}')).toEqual(['gpt-4o', 'o3']);
    expect(modelIdsOf('{"data": [{"name": "x"}, null, 3, {"id": 7}, {"id": "m"}]}')).toEqual(['m']);
    expect(modelIdsOf('{"data": []}')).toEqual([]);
  });

  it('is no list for a page, broken JSON, or JSON of another shape (Ollama\'s own {"models": …})', () => {
    for (const text of ['<html></html>', '{"data": [', 'null', '[]', '{"data": "x"}', '{"models": [{"name": "a"}]}'])
      expect(modelIdsOf(text)).toBeUndefined();
  });

  it('says what came instead', () => {
    expect(notAModelList('text/html; charset=utf-8', '<html></html>')).toBe('a web page (text/html)');
    expect(notAModelList('application/json', '{"models": []}')).toBe('JSON with no "data" list');
    expect(notAModelList('text/plain', 'Not here')).toBe('text/plain that is not JSON');
    expect(notAModelList(null, 'Not here')).toBe('a body that is not JSON');
  });
});
