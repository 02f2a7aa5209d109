#!/usr/bin/env bash
# `make image`: builds shelf:local from the Dockerfile. With a Docker daemon, docker build
# on the public bases; otherwise buildah, on the debootstrap base of base.sh (unless
# BUILD_BASE / RUN_BASE are given), with the flags that work on the CI machines:
# chroot isolation (no nested runtime needed), host networking, docker format (OCI images
# drop HEALTHCHECK), and --layers so a source change reuses the apt and bun install steps.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/container/env.sh
TAG="${IMAGE:-shelf:local}"
started=$SECONDS

if [ "$ENGINE" = docker ]; then
  args=()
  [ -n "${BUILD_BASE:-}" ] && args+=(--build-arg "BUILD_BASE=$BUILD_BASE")
  [ -n "${RUN_BASE:-}" ] && args+=(--build-arg "RUN_BASE=$RUN_BASE")
  docker build "${args[@]}" -t "$TAG" .
else
  for tool in buildah podman debootstrap runc; do
    command -v "$tool" >/dev/null || { echo "image: $tool not found (no Docker daemon either): apt-get install -y podman buildah debootstrap runc" >&2; exit 1; }
  done
  base="$(bash scripts/container/base.sh)"
  echo "image: base $base ready after $((SECONDS - started))s" >&2
  buildah bud --isolation chroot --network host --format docker --layers \
    --build-arg "BUILD_BASE=${BUILD_BASE:-$base}" --build-arg "RUN_BASE=${RUN_BASE:-$base}" \
    ${NPM_REGISTRY:+--build-arg "NPM_REGISTRY=$NPM_REGISTRY"} "${CA_ARGS[@]}" \
    -t "$TAG" .
fi
echo "image: built $TAG in $((SECONDS - started))s" >&2
