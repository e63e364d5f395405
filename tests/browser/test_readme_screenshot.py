"""The README shows one screenshot of a table (issue 11): a PNG in the repository, taken at
1440×900, described for readers who cannot see it. (It is refreshed from
test-artifacts/turn-2p-pour-1440-en.png, which test_one_screen takes.)"""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_one_table_screenshot() -> None:
    readme = (ROOT / "README.md").read_text()
    images = re.findall(r"!\[([^\]]+)\]\(([^)]+)\)", readme)
    assert len(images) == 1, images
    alt, path = images[0]
    assert "table" in alt and len(alt) > 40  # says what it shows
    data = (ROOT / path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1440, 900)
