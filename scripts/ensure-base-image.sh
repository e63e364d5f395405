#!/usr/bin/env bash
# A base image for the Dockerfile made from Debian's own packages, for a machine that reaches
# deb.debian.org but no container registry (the Dockerfile's default base, python:3.11-slim,
# cannot be pulled there): Debian bookworm (debootstrap's minbase) with Debian's Python 3.11,
# committed into buildah's local storage. Prints the image's name, to be passed on as
#   BASE=$(scripts/ensure-base-image.sh) scripts/image-size.sh   (--build-arg BASE=...)
# The root filesystem is made once (a few minutes: ~90 packages from deb.debian.org) and kept
# as a tarball in ~/.cache/coffee-rush/, so the image is remade from it in seconds. The image
# is for building and trying here: it carries this machine's CA bundle (see below).
# Installs buildah and debootstrap (Debian packages) when they are missing and it runs as root.
# Exit 3, saying why: no buildah or debootstrap and no way to install them.
set -euo pipefail
image=localhost/coffee-rush-base:bookworm
cache=${XDG_CACHE_HOME:-$HOME/.cache}/coffee-rush
rootfs=$cache/base-bookworm-rootfs.tar
packages=python3,python3-venv,python-is-python3,ca-certificates

need=()
command -v buildah >/dev/null || need+=(buildah)
command -v debootstrap >/dev/null || [ -f "$rootfs" ] || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        echo "ensure-base-image: ${need[*]} missing; install them (Debian packages) as root" >&2
        exit 3
    fi
    echo "ensure-base-image: installing ${need[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
        >/dev/null
fi

if buildah inspect --type image "$image" >/dev/null 2>&1; then
    echo "$image"
    exit 0
fi

if [ ! -f "$rootfs" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "ensure-base-image: debootstrap needs root to make $rootfs" >&2
        exit 3
    fi
    echo "ensure-base-image: making a Debian bookworm root filesystem with $packages" \
        "(debootstrap from deb.debian.org, once; a few minutes)" >&2
    mkdir -p "$cache"
    work=$(mktemp -d "$cache/rootfs.XXXXXX")
    trap 'rm -rf "$work"' EXIT  # debootstrap's tree: gone whether it worked or not
    debootstrap --variant=minbase --include="$packages" bookworm "$work/root" \
        http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
        || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    # What an image does not need: apt's package lists and downloaded .debs, docs, man pages.
    rm -rf "$work"/root/var/lib/apt/lists/* "$work"/root/var/cache/apt/*.bin \
        "$work"/root/var/cache/apt/archives/*.deb "$work"/root/usr/share/doc/* \
        "$work"/root/usr/share/man/* "$work"/root/var/log/*
    tar --numeric-owner -C "$work/root" -cf "$work/rootfs.tar" .
    mv "$work/rootfs.tar" "$rootfs"
    rm -rf "$work"
fi

echo "ensure-base-image: importing $rootfs into buildah as $image" >&2
container=$(buildah from scratch)
trap 'buildah rm "$container" >/dev/null 2>&1 || true' EXIT
buildah add --quiet "$container" "$rootfs" / >/dev/null
# The image trusts the certificate authorities this machine trusts (pip in the build reaches
# PyPI as the host does, through its proxy if it has one that signs with its own CA).
host_cas=/etc/ssl/certs/ca-certificates.crt
[ -f "$host_cas" ] && buildah copy --quiet "$container" "$host_cas" "$host_cas" >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env LANG=C.UTF-8 --cmd python3 "$container"
buildah commit --quiet --format docker "$container" "$image" >/dev/null
echo "$image"
