/**
 * Small pieces of the provider framework: private state (kept by Terraform
 * with a resource object) and durations as configurations write them.
 */
import { formatDuration, parseDuration } from '../../../lib/provider/framework/duration';
import { PrivateState } from '../../../lib/provider/framework/private-state';

describe('PrivateState', () => {
  test('empty bytes are an empty state, which encodes back to empty bytes', () => {
    for (const bytes of [undefined, null, new Uint8Array()]) expect(PrivateState.decode(bytes).encode()).toEqual(Buffer.alloc(0));
  });

  test('values by key survive a round trip; setting undefined removes a key', () => {
    const state = PrivateState.decode(null);
    state.set('write', { etag: 'BwX', replaced: 'abcdefgh' });
    state.set('other', 1);
    state.set('other', undefined);
    const decoded = PrivateState.decode(state.encode());
    expect(decoded.get('write')).toEqual({ etag: 'BwX', replaced: 'abcdefgh' });
    expect(decoded.get('other')).toBeUndefined();
    expect(JSON.parse(state.encode().toString('utf8'))).toEqual({ write: { etag: 'BwX', replaced: 'abcdefgh' } });
  });

  test('bytes it cannot read (another shape, not JSON) start afresh rather than fail the call', () => {
    for (const text of ['not json', '[1,2]', '"text"', 'null'])
      expect(PrivateState.decode(Buffer.from(text)).encode()).toEqual(Buffer.alloc(0));
  });
});

describe('durations', () => {
  test.each([
    ['2m', 120_000],
    ['90s', 90_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1.5s', 1_500],
    ['1h', 3_600_000],
    ['0s', 0],
    ['0', 0],
  ])('%s is %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  test.each(['', '2', '-1s', '1 m', '2min', 's', '1m-30s'])('%j is not a duration', (text) => expect(parseDuration(text)).toBeUndefined());

  test.each([
    [250, '250ms'],
    [4_200, '4.2s'],
    [60_000, '1m'],
    [125_000, '2m5s'],
  ])('%i ms reads as %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
