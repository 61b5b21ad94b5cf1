// What the charts tween with, loaded the first time a chart moves (motion.ts says why): d3's
// selection and transitions, its easing and its number interpolation, and the counter chart's
// tween (counterTween.ts), which is of no use before them: until they load, the chart shows each
// state at once.
//
// d3-transition adds selection.transition() and .interrupt() as a side effect of its import; the
// d3 bundle declares itself free of side effects, so a build that only imports from 'd3' drops
// them. Importing the module here keeps them wherever the charts tween.
import 'd3-transition';

export { easeCubicInOut, easeCubicOut, interpolateNumber, select } from 'd3';
export { createCounterTween } from './counterTween.ts';
