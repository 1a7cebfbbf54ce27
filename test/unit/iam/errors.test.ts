import { IamValidationError } from '../../../lib/iam/errors';

describe('IamValidationError.show quotes a value for a message', () => {
  test.each<[unknown, string]>([
    ['a', '"a"'],
    [3, '3'],
    [undefined, 'undefined'],
    [['a', 'b', 'c', 'd', 'e'], '["a","b","c","d","e"]'],
    [{ members: ['a', 'b'] }, '{"members":["a","b"]}'],
  ])('%j → %s', (value, shown) => {
    expect(IamValidationError.show(value)).toBe(shown);
  });

  test('a long list is summarized: its length and its first values', () => {
    const members = Array.from({ length: 1600 }, (_, i) => `user:u${i}@example.com`);
    expect(IamValidationError.show(members)).toBe(
      '1,600 values, the first 3: "user:u0@example.com", "user:u1@example.com", "user:u2@example.com"',
    );
  });

  test('a long list inside a value too', () => {
    expect(IamValidationError.show({ role: 'r', members: ['a', 'b', 'c', 'd', 'e', 'f'] })).toBe(
      '{"role":"r","members":["a","b","c","… 3 more"]}',
    );
  });

  test('the message of 1,600 members stays one short line', () => {
    const members = Array.from({ length: 1600 }, (_, i) => `user:u${i}@example.com`);
    const error = new IamValidationError('members', members, 'policy would hold 1,600 principals; Google allows at most 1,500');
    expect(error.message).toBe(
      'members: policy would hold 1,600 principals; Google allows at most 1,500 (got 1,600 values, the first 3: "user:u0@example.com", "user:u1@example.com", "user:u2@example.com")',
    );
  });
});
