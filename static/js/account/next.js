// Where an account page may send a player once signed in: its `data-next`, a path the
// server kept as one of this site (server/api/next_path.py), checked again here as the
// browser resolves it.

/**
 * Its absolute address is what is followed: a resolved path such as "//host" (from
 * "/.//host") would otherwise be read as another site.
 * @param {string | undefined} next the page's `data-next`
 * @returns {string | null} an absolute URL on this origin
 */
export function nextUrl(next) {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next)) return null;
  const url = new URL(next, location.origin);
  if (url.origin !== location.origin || url.pathname.startsWith("//")) return null;
  return url.href;
}
