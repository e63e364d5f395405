#!/usr/bin/env bash
# `make run`'s install: a venv holding only what the server needs at run time (pyproject's
# dependencies, not the package: it serves from the checkout), saying each step.
#   scripts/install-run.sh PYTHON VENV
# From clone to first page the time goes on asking the package index, one package after
# another with pip; uv asks in parallel (figures: README, "For developers"). So the installer
# is uv: the one on PATH, else one fetched once from PyPI by PYTHON's pip (one ~18 MB wheel,
# no dependencies) into UV_HOME (~/.cache/coffee-rush/uv); if that fails (no pip, PyPI out
# of reach, no uv wheel for this platform), pip itself: into a venv made without pip when
# PYTHON's pip can install into another environment (22.3+, --python), else the venv's own.
# USE_UV=no skips uv.
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
uv_home=${UV_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/coffee-rush/uv}
step() { echo "==> [$1/4] $2"; }

works() { "$1" --version >/dev/null 2>&1; }

fetch_uv() {  # into a fresh folder, moved into place whole (another clone may fetch at once)
    mkdir -p "$(dirname "$uv_home")"
    local tmp
    tmp=$(mktemp -d "$uv_home.XXXXXX")
    if PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check \
            --no-warn-script-location --no-deps --only-binary :all: --target "$tmp" 'uv>=0.5' \
            && works "$tmp/bin/uv"; then
        if works "$uv_home/bin/uv"; then
            rm -rf "$tmp"
        else
            rm -rf "$uv_home" && mv "$tmp" "$uv_home"
        fi
        return 0
    fi
    rm -rf "$tmp"
    return 1
}

step 1 "Finding uv, a fast installer"
uv=""
if [ "${USE_UV:-yes}" = no ]; then
    echo "USE_UV=no: installing with pip"
elif command -v uv >/dev/null && works uv; then
    uv=$(command -v uv)
    echo "uv on PATH: $uv"
elif works "$uv_home/bin/uv"; then
    uv=$uv_home/bin/uv
    echo "uv fetched before: $uv"
else
    echo "uv is not on PATH: fetching it from PyPI into $uv_home with $python's pip"
    if fetch_uv; then
        uv=$uv_home/bin/uv
        echo "fetched $("$uv" --version)"
    else
        echo "could not fetch uv: installing with pip instead"
    fi
fi

outer_pip=no
"$python" -c "import pip, sys; sys.exit(tuple(map(int, pip.__version__.split('.')[:2])) < (22, 3))" \
    2>/dev/null && outer_pip=yes

step 2 "Creating the virtual environment $venv"
if [ -n "$uv" ]; then
    "$uv" venv --quiet --allow-existing --python "$python" "$venv"
elif [ "$outer_pip" = yes ]; then
    "$python" -m venv --without-pip "$venv"
else
    "$python" -m venv "$venv"
fi

reqs=$venv/requirements-run.txt
step 3 "Reading the run-time packages from pyproject.toml into $reqs"
"$venv/bin/python" -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" \
    >"$reqs"

if [ -n "$uv" ]; then
    step 4 "Installing them with uv (it prints each one)"
    "$uv" pip install --python "$venv/bin/python" -r "$reqs"
elif [ "$outer_pip" = yes ]; then
    step 4 "Installing them with $python's pip (it prints each one)"
    "$python" -m pip --python "$venv/bin/python" install --no-compile --progress-bar on -r "$reqs"
else
    step 4 "Installing them with the venv's pip (it prints each one)"
    "$venv/bin/python" -m pip install --no-compile --progress-bar on -r "$reqs"
fi
