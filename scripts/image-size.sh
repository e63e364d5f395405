#!/usr/bin/env bash
# Build the image from the Dockerfile and print its size: `scripts/image-size.sh [TAG]`.
# Uses docker (with a daemon running), podman or buildah, whichever is found first (buildah with chroot isolation,
# which runs where user namespaces are not available). Exit 3: no builder on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-coffee-rush:local}
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    docker build --quiet --tag "$tag" . >/dev/null
    bytes=$(docker image inspect --format '{{.Size}}' "$tag")
elif command -v podman >/dev/null; then
    podman build --quiet --tag "$tag" . >/dev/null
    bytes=$(podman image inspect --format '{{.Size}}' "$tag")
elif command -v buildah >/dev/null; then
    buildah bud --quiet --isolation chroot --layers --tag "$tag" . >/dev/null
    bytes=$(buildah inspect --type image --format '{{.ImageSize}}' "$tag" 2>/dev/null \
        || buildah images --noheading --format '{{.Size}}' "$tag")
else
    echo "no image builder (docker, podman or buildah) on PATH" >&2
    exit 3
fi
echo "$tag: $bytes"
