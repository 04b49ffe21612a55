import { describe, expect, it } from 'vitest';
import { fillTemplate, templateVariables } from './variables';

describe('template variables', () => {
  it('lists each variable once, in order, in lower case, across the text and the first comment', () => {
    expect(templateVariables('New: {{Product}} for {{ price }}', 'Buy {{product}} at {{url}}')).toEqual([
      'product',
      'price',
      'url',
    ]);
    expect(templateVariables('no variables {here}', null)).toEqual([]);
  });

  it('fills every variable that has a value; a blank or absent one is missing and left in place', () => {
    expect(fillTemplate('New: {{product}} for {{price}}!', { PRODUCT: 'Lamp', price: '€20' })).toEqual({
      text: 'New: Lamp for €20!',
      missing: [],
    });
    expect(fillTemplate('{{a}} and {{b}} and {{a}}', { a: ' ', c: 'x' })).toEqual({
      text: '{{a}} and {{b}} and {{a}}',
      missing: ['a', 'b'],
    });
  });
});
