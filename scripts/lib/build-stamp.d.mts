/** Runs `build` unless dist/ under `root` (default: this project) was built from its inputs as they are now. */
export function buildUnlessCurrent(build: () => void, root?: string): void;
