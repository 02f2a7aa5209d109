#!/usr/bin/env bash
# Makes the local base image (default localhost/debian-minbase:bookworm-slim) with
# debootstrap from the Debian mirror apt already uses, for machines that cannot pull
# debian:bookworm-slim; slimmed as that image is (no documentation, manual pages or
# translations, in the base or in what apt installs on it; copyright files stay).
# Idempotent: does nothing when the image exists. Prints the image name on stdout.
#
#   bash scripts/container/base.sh              # -> localhost/debian-minbase:bookworm-slim
#   BASE_TAR=/cache/base.tar bash ...           # reuse (or keep) the rootfs tarball
set -euo pipefail
source "$(dirname "$0")/env.sh"
IMAGE="${BASE_IMAGE:-localhost/debian-minbase:bookworm-slim}"
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
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/cache/apt/"*.bin "$work/root/var/lib/apt/lists/"*
  # As debian:bookworm-slim's /etc/dpkg/dpkg.cfg.d/docker: dpkg leaves these out of every
  # package installed later; what debootstrap installed goes now (about 45 MB).
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/man/*' 'path-exclude /usr/share/groff/*' 'path-exclude /usr/share/info/*' \
    'path-exclude /usr/share/lintian/*' 'path-exclude /usr/share/linda/*' 'path-exclude /usr/share/locale/*' \
    >"$work/root/etc/dpkg/dpkg.cfg.d/slim"
  find "$work/root/usr/share/doc" -mindepth 1 -not -type d -not -name copyright -delete
  find "$work/root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$work/root/usr/share/man/"* "$work/root/usr/share/groff/"* "$work/root/usr/share/info/"* \
    "$work/root/usr/share/lintian/"* "$work/root/usr/share/locale/"*
  out="${TAR:-$work/base.tar}"
  tar -C "$work/root" -cf "$out" .
  TAR="$out"
fi
"${PODMAN[@]}" import --change 'CMD ["/bin/bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$TAR" "$IMAGE" >&2
echo "$IMAGE"
