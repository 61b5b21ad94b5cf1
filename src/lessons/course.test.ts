// The course runs through every scenario once, from global-plain to percpu-ref-switch.

import { describe, expect, it } from 'vitest';
import { catalogue } from '../scenarios/index.ts';
import { courseOf, courseOrder, nextInCourse, previousInCourse } from './course.ts';

describe('course', () => {
  it('holds every scenario of the catalogue exactly once', () => {
    expect([...courseOrder].sort()).toEqual(catalogue.map((s) => s.id).sort());
  });

  it('sorts lessons by the place each gives itself, and refuses two at one place', () => {
    const at = (scenario: string, course: number) => ({ scenario, course });
    expect(courseOf([at('b', 20), at('a', 30), at('c', 15)])).toEqual(['c', 'b', 'a']);
    expect(() => courseOf([at('b', 20), at('a', 20)])).toThrow(
      'b.json and a.json both stand at course 20: give one another number',
    );
  });

  it('starts at global-plain and ends at percpu-ref-switch', () => {
    expect(courseOrder[0]).toBe('global-plain');
    expect(courseOrder[courseOrder.length - 1]).toBe('percpu-ref-switch');
  });

  it('teaches the locked percpu_counter before the lockless designs that break it', () => {
    const at = (id: string) => courseOrder.indexOf(id);
    expect(at('percpu-classic')).toBeLessThan(at('percpu-atomic64'));
    expect(at('percpu-sum-fuzzy')).toBeLessThan(at('percpu-seq'));
    expect(at('irq-local-rmw')).toBeLessThan(at('percpu-modern'));
    expect(at('percpu-modern')).toBeLessThan(at('percpu-rwsem'));
  });

  it('walks forward and back, and stops at both ends', () => {
    expect(nextInCourse('global-plain')).toBe(courseOrder[1]);
    expect(previousInCourse(courseOrder[1] as string)).toBe('global-plain');
    expect(previousInCourse('global-plain')).toBeNull();
    expect(nextInCourse('percpu-modern')).toBe('percpu-hotplug-sum');
    expect(nextInCourse('percpu-hotplug-sum')).toBe('percpu-limited-add');
    expect(nextInCourse('percpu-upgrade')).toBe('percpu-tree');
    expect(nextInCourse('percpu-tree')).toBe('percpu-rwsem');
    expect(nextInCourse('percpu-rwsem')).toBe('seqcount-sum');
    expect(nextInCourse('seqcount-sum')).toBe('percpu-ref-switch');
    expect(nextInCourse('percpu-ref-switch')).toBeNull();
    expect(nextInCourse('no-such-scenario')).toBeNull();
  });
});
