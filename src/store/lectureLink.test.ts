import { describe, expect, it } from 'vitest';
import { parseLectureLink, slideOf } from './lectureLink.ts';

const open = (hash: string, count: number) => {
  const link = parseLectureLink(hash);
  if (!link) throw new Error(`not a lecture link: ${hash}`);
  return { scenario: link.scenario, ...slideOf(link, count) };
};

describe('lecture links', () => {
  it('open the slide they name', () => {
    expect(open('#/lecture/global-plain/3', 5)).toEqual({
      scenario: 'global-plain',
      slide: 3,
      problem: null,
    });
    expect(open('#/lecture/global-plain', 5).slide).toBe(1);
  });

  it('keep the lesson when the slide part is bad, and say what was shown instead', () => {
    expect(open('#/lecture/global-plain/abc', 5)).toEqual({
      scenario: 'global-plain',
      slide: 1,
      problem: '‘abc’ is not a slide number (its slides are 1 to 5); showing slide 1',
    });
    expect(open('#/lecture/global-plain/99', 5)).toEqual({
      scenario: 'global-plain',
      slide: 5,
      problem: 'there is no slide 99 (its slides are 1 to 5); showing slide 5',
    });
    expect(open('#/lecture/global-plain/0', 5).problem).toBe(
      'there is no slide 0 (its slides are 1 to 5); showing slide 1',
    );
  });

  it('are not lecture links without a lesson id', () => {
    expect(parseLectureLink('#/lecture/')).toBeNull();
    expect(parseLectureLink('#/lecture/Bad Id/1')).toBeNull();
  });
});
