import home from 'virtual:catalogue-cards';
import { IsolationStatus } from '../IsolationStatus.tsx';
import { CourseList } from '../lecture/CourseList.tsx';
import { ScenarioCards } from './ScenarioCards.tsx';

/**
 * The home page under its intro: whether Live mode can run here, the course, the catalogue. All
 * of it from the cards computed at build time (src/charts/cards.ts): no scenario runs on this page.
 */
export function HomeScreen() {
  return (
    <>
      {/* Fixed for the page's lifetime: the headers it was served with decide it. */}
      <IsolationStatus isolated={window.crossOriginIsolated} />
      <CourseList cards={home.cards} course={home.course} />
      <ScenarioCards cards={home.cards} />
    </>
  );
}
