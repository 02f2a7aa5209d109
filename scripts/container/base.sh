#!/usr/bin/env bash
# Makes the local base image (default localhost/debian-minbase:bookworm) with debootstrap
# from the Debian mirror apt already uses, for machines that cannot pull debian:bookworm-slim.
# Idempotent: does nothing when the image exists. Prints the image name on stdout.
#
#   bash scripts/container/base.sh              # -> localhost/debian-minbase:bookworm
#   BASE_TAR=/cache/base.tar bash ...           # reuse (or keep) the rootfs tarball
set -euo pipefail
source "$(dirname "$0")/env.sh"
IMAGE="${BASE_IMAGE:-localhost/debian-minbase:bookworm}"
SUITE="${SUITE:-bookworm}"

if "${PODMAN[@]}" image exists "$IMAGE"; then echo "$IMAGE"; exit 0; fi

# The first http(s) URI of the Debian suite in apt's sources (deb822 or one-line form).
mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    awk '/^URIs:/ {print $2; exit}' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$f" ] || continue
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' "$f"
  done
}
MIRROR="${DEBIAN_MIRROR:-$(mirror | grep -v -- '-security' | head -1)}"
[ -n "$MIRROR" ] || { echo "base.sh: no Debian mirror in the apt sources; set DEBIAN_MIRROR" >&2; exit 1; }

TAR="${BASE_TAR:-}"
if [ -z "$TAR" ] || [ ! -s "$TAR" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "base.sh: debootstrap $SUITE from $MIRROR" >&2
  debootstrap --variant=minbase "$SUITE" "$work/root" "$MIRROR" >&2
  # The image's apt uses the same mirror; drop the caches the build stage would reinstall.
  echo "deb $MIRROR $SUITE main" >"$work/root/etc/apt/sources.list"
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
  out="${TAR:-$work/base.tar}"
  tar -C "$work/root" -cf "$out" .
  TAR="$out"
fi
"${PODMAN[@]}" import --change 'CMD ["/bin/bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$TAR" "$IMAGE" >&2
echo "$IMAGE"
