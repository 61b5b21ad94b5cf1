import { expect, it } from 'vitest';
import { MAX_LINK_CHARS as ROOM_MAX } from '../classroom/protocol.ts';
import { MAX_LINK_CHARS } from './linkLimits.ts';

it('a classroom takes a moment as long as any Step link the page writes', () => {
  expect(ROOM_MAX).toBe(MAX_LINK_CHARS);
});
