"""Where the folders the server reads beside its code are: templates/, static/,
migrations/ and deploy/ (HAProxy's config) at the top of a checkout, or inside the
`server` package once installed from a wheel (setup.py ships them there), so the server
runs from any folder."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent


def shipped(name: str) -> Path:
    """The folder `name` of the installed package, else of the checkout."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else CHECKOUT / name
