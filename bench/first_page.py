"""A new host's first minutes: `git clone`, then `make run`, until the lobby page answers.

    python3 bench/first_page.py                 # this checkout's HEAD
    python3 bench/first_page.py --ref HEAD~3    # an older Makefile, to compare
    python3 bench/first_page.py --json
    python3 bench/first_page.py --cold          # pip's and uv's caches empty too

The clone is a fresh one in a temporary folder, so its `.venv` is cold; pip's and uv's
caches are left as they are (a host who installed before) unless --cold. uv is fetched anew
into the temporary folder (UV_HOME), as on a new host, unless it is on PATH. Prints the
seconds from clone to the first 200 on `/`, how many of them were the clone, the CPU seconds
the install took (user + system, of every process `make` waited for: steadier than the wall
clock on a busy machine) and the size of the `.venv` (`du -sh`).
Run the two refs one after the other, never at once: they share the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ports import free_port  # noqa: E402  (standard library only, as this script)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def measure(ref: str, timeout: float, cold: bool) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="first-page-") as tmp:
        clone = Path(tmp) / "coffee-rush"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", ref], cwd=clone, check=True)
        cloned = time.monotonic() - start
        port = free_port()
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port),
               "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/first-page.db",
               "UV_HOME": f"{tmp}/uv"}
        if cold:
            env.update(PIP_CACHE_DIR=f"{tmp}/pip-cache", UV_CACHE_DIR=f"{tmp}/uv-cache")
        log = (Path(tmp) / "make.log").open("wb")
        make = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            while not answers(f"http://127.0.0.1:{port}/"):
                if make.poll() is not None or time.monotonic() - start > timeout:
                    raise SystemExit((Path(tmp) / "make.log").read_text()[-3000:])
                time.sleep(0.2)
            seconds = time.monotonic() - start
        finally:
            os.killpg(make.pid, signal.SIGTERM)
            make.wait()
            log.close()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        lines = (Path(tmp) / "make.log").read_text().count("\n")
        size = subprocess.run(["du", "-sh", str(clone / ".venv")], capture_output=True,
                              text=True, check=True).stdout.split()[0]
        return {"ref": ref, "cold": cold, "clone_to_first_page_s": round(seconds, 1),
                "clone_s": round(cloned, 1), "cpu_s": round(cpu, 1), "venv": size,
                "lines_printed": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ref", default="HEAD", help="the commit whose Makefile runs")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--cold", action="store_true", help="empty pip and uv caches")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.ref, args.timeout, args.cold)
    if args.json:
        print(json.dumps(figures))
    else:
        caches = " (cold caches)" if figures["cold"] else ""
        print(f"{figures['ref']}{caches}: clone to first page {figures['clone_to_first_page_s']} s "
              f"(clone {figures['clone_s']} s, CPU {figures['cpu_s']} s), .venv {figures['venv']}, "
              f"{figures['lines_printed']} lines printed while installing")


if __name__ == "__main__":
    main()
