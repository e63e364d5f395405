#!/usr/bin/env bash
# Build the image from the Dockerfile and print its size: `[BASE=IMAGE] scripts/image-size.sh [TAG]`.
# Uses docker (with a daemon running), podman or buildah, whichever is found first (buildah with
# chroot isolation, which runs where user namespaces are not available; podman and buildah in
# Docker's format, which keeps the HEALTHCHECK). BASE, when set, replaces the Dockerfile's base
# image (python:3.11-slim), e.g. BASE=$(scripts/ensure-base-image.sh) where no registry resolves.
# Exit 3: no builder on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-coffee-rush:local}
base=()
[ -n "${BASE:-}" ] && base=(--build-arg "BASE=$BASE")
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    docker build --quiet "${base[@]}" --tag "$tag" . >/dev/null
    bytes=$(docker image inspect --format '{{.Size}}' "$tag")
elif command -v podman >/dev/null; then
    podman build --quiet --format docker "${base[@]}" --tag "$tag" . >/dev/null
    bytes=$(podman image inspect --format '{{.Size}}' "$tag")
elif command -v buildah >/dev/null; then
    buildah bud --quiet --isolation chroot --layers --format docker "${base[@]}" --tag "$tag" . \
        >/dev/null
    bytes=$(buildah inspect --type image --format '{{.ImageSize}}' "$tag" 2>/dev/null \
        || buildah images --noheading --format '{{.Size}}' "$tag")
else
    echo "no image builder (docker, podman or buildah) on PATH" >&2
    exit 3
fi
echo "$tag: $bytes"
