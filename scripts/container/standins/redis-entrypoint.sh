#!/bin/sh
# The redis image's interface, as compose.yaml uses it: `redis-server ARGS` with /data as
# its working folder, reachable from other containers (the public image turns protected
# mode off too), as the redis user.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  chown redis:redis /data
  exec runuser -u redis -- redis-server --protected-mode no --dir /data "$@"
fi
exec "$@"
