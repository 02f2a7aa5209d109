#!/usr/bin/env bash
# Builds the local stand-ins for compose.yaml's public images (scripts/container/standins/)
# on the debootstrap base, for `make fleet-test` on machines that cannot pull them:
#   localhost/shelf-standin-postgres:local   POSTGRES_IMAGE
#   localhost/shelf-standin-redis:local      REDIS_IMAGE
#   localhost/shelf-standin-s3:local         S3_IMAGE and S3_CLIENT_IMAGE (s3rver, an mc)
# With --layers a second run reuses every step. Prints the elapsed time.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/container/env.sh
started=$SECONDS
base="$(bash scripts/container/base.sh)"
# s3rver at the version the lockfile pins for the real-parts tests; Bun to install it.
s3rver="$(sed -n 's/.*"s3rver": \["s3rver@\([0-9.]*\)".*/\1/p' bun.lock)"
[ -n "$s3rver" ] || { echo "standins: no s3rver in bun.lock" >&2; exit 1; }
for target in postgres redis s3; do
  buildah bud --isolation chroot --network host --format docker --layers --quiet \
    --build-arg "BASE=$base" --build-arg "BUN_VERSION=$(tr -d '[:space:]' <.bun-version)" --build-arg "S3RVER_VERSION=$s3rver" \
    ${NPM_REGISTRY:+--build-arg "NPM_REGISTRY=$NPM_REGISTRY"} "${CA_ARGS[@]}" \
    --target "$target" -t "localhost/shelf-standin-$target:local" scripts/container/standins >/dev/null
  echo "standins: localhost/shelf-standin-$target:local ($((SECONDS - started)) s)" >&2
done
