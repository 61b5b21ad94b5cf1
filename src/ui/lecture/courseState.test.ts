import { describe, expect, it } from 'vitest';
import { courseState } from './courseState.ts';

describe('a lesson’s line in the course list', () => {
  it('counts a challenge solved without the lecture as progress, not "not started"', () => {
    expect(courseState(6, undefined, 2, 1)).toBe('lecture not opened; 1 of 2 challenges done');
  });

  it('says where the lecture was left, and when it is done', () => {
    expect(courseState(6, { slide: 2, done: false }, 2, 0)).toBe(
      'lecture at slide 3 of 6; 0 of 2 challenges done',
    );
    expect(courseState(6, { slide: 5, done: true }, 0, 0)).toBe('lecture done');
  });
});
