// The cores this browser reports (two when it will not say): what Live and Scaling size their
// runs by. One value, read once, so every screen plans for the same machine.
export const CORES: number = navigator.hardwareConcurrency || 2;
