"""Where the account page may send a player once signed in (`/account?next=...`): a path
of this site, never another site however it is spelled (issue 41.5).

The check is made on the path as a browser resolves it, not on the raw string: the WHATWG
URL parser drops tabs and newlines, reads `\\` as `/`, and removes dot segments (`.`,
`..`, and their percent-encoded spellings `%2e`), so `/.//evil.example` resolves to
`//evil.example`, a path that the page would then hand to `location.assign` as a
scheme-relative URL to another host. A raw string with a control character, a space or a
backslash is refused outright; what is left is resolved here as a browser does, and
refused if it starts with `//`.
"""

from __future__ import annotations

_SINGLE = {".", "%2e"}
_DOUBLE = {"..", ".%2e", "%2e.", "%2e%2e"}


def _remove_dot_segments(path: str) -> str:
    """The path as the WHATWG URL parser leaves it (`path` starts with "/")."""
    out: list[str] = []
    segments = path[1:].split("/")
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        folded = segment.lower()
        if folded in _DOUBLE:
            if out:
                out.pop()
            if last:
                out.append("")
        elif folded in _SINGLE:
            if last:
                out.append("")
        else:
            out.append(segment)
    return "/" + "/".join(out)


def same_site_path(raw: str | None) -> str | None:
    """`raw` resolved to a path of this site (its query and fragment kept), or None when
    it is empty or could lead anywhere else."""
    if not raw or not raw.startswith("/") or raw.startswith("//"):
        return None
    if "\\" in raw or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        return None
    rest, hash_mark, fragment = raw.partition("#")
    path, question, query = rest.partition("?")
    path = _remove_dot_segments(path)
    if path.startswith("//"):
        return None
    return path + question + query + hash_mark + fragment
