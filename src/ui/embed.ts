// Embed mode (`?embed=1` before the hash): the Step stage and its controls only, for an <iframe>
// in slides or a course page. A framed page is never cross-origin isolated (its embedder is
// not), so it offers Step mode and Explore, which need no shared memory.

export const embedded = new URLSearchParams(location.search).get('embed') === '1';

/** The full lab's address for this page, without `?embed=1`. */
export function fullLabHref(): string {
  return location.href.replace(/[?&]embed=1/, '');
}
