import { lazy, Suspense } from 'react';
import { catalogue } from '../../scenarios/index.ts';
import { IsolationStatus } from '../IsolationStatus.tsx';
import { ScenarioCards } from './ScenarioCards.tsx';

// The course line reads the lessons, which load after the catalogue.
const CourseList = lazy(() =>
  import('../lecture/CourseList.tsx').then((m) => ({ default: m.CourseList })),
);

/** The home page under its intro: whether Live mode can run here, the course, the catalogue. */
export function HomeScreen() {
  return (
    <>
      {/* Fixed for the page's lifetime: the headers it was served with decide it. */}
      <IsolationStatus isolated={window.crossOriginIsolated} />
      <Suspense fallback={<p>Loading the course…</p>}>
        <CourseList />
      </Suspense>
      <ScenarioCards scenarios={catalogue} />
    </>
  );
}
