// The cores this browser reports (two when it will not say): what Live and Scaling size their
// runs by and Explore its workers. One value, read once, so every screen plans for the same
// machine; the bridges are handed it.
export const CORES: number = navigator.hardwareConcurrency || 2;
