// Embed mode (`?embed=1` before the hash): the Step stage and its controls only, for an <iframe>
// in slides or a course page. A framed page is never cross-origin isolated (its embedder is
// not), so it offers Step mode and Explore, which need no shared memory.

export const embedded = new URLSearchParams(location.search).get('embed') === '1';

/**
 * The full lab's address, without `?embed=1`: of this page, or of `hash` (a link the embed builds
 * from its own state, so it is the moment shown now, not the address of one render ago).
 */
export function fullLabHref(hash?: string): string {
  const page = location.href.replace(/[?&]embed=1/, '');
  return hash === undefined ? page : page.replace(/#.*$/, '') + hash;
}
