#!/usr/bin/env bash
# Runs a command against the production parts, started here for the occasion and stopped
# afterwards: Postgres (a throwaway cluster), Redis and s3rver (an S3-compatible server,
# a devDependency), each on a free port in a temporary folder.
#
#   bash scripts/real-parts.sh bun test          # what `make test-real` and CI run
#   bash scripts/real-parts.sh bun src/main.ts serve
#
# The command sees DATABASE_URL, REDIS_URL, S3_BUCKET, S3_ENDPOINT, S3_REGION,
# S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and JWT_SECRET. The script exits with its status.
#
# Needs: Postgres 15+ server binaries (Debian: postgresql; found in /usr/lib/postgresql/*/bin,
# or set PG_BIN), redis-server, node (for s3rver) and bun. As root on Debian, missing
# postgresql / redis-server packages are installed with apt-get. Postgres refuses to run
# as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { echo "real-parts: $*" >&2; }
die() {
  log "$*"
  exit 1
}

# ---- tools ------------------------------------------------------------------------------

find_pg_bin() {
  if [[ -n "${PG_BIN:-}" ]]; then echo "$PG_BIN"; return; fi
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [[ -n "$d" && -x "$d/initdb" ]]; then echo "$d"; return; fi
  d="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
  [[ -x "$d/initdb" ]] && echo "$d"
}

missing=()
[[ -n "$(find_pg_bin)" ]] || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
if ((${#missing[@]})); then
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    die "missing: ${missing[*]} (install them, or run as root on Debian)"
  fi
fi
PG_BIN="$(find_pg_bin)"
[[ -n "$PG_BIN" ]] || die "Postgres server binaries not found; set PG_BIN"
command -v node >/dev/null || die "node is needed to run s3rver"
[[ -f "$repo/node_modules/s3rver/bin/s3rver.js" ]] || die "s3rver is not installed (bun install)"

free_port() {
  bun -e 'const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(s.port); s.stop(true);'
}

wait_port() { # $1 = port, $2 = what, $3 = pid to watch, $4 = log
  local i
  for i in $(seq 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    if [[ -n "${3:-}" ]] && ! kill -0 "$3" 2>/dev/null; then
      [[ -n "${4:-}" ]] && cat "$4" >&2
      die "$2 exited during start"
    fi
    sleep 0.1
  done
  [[ -n "${4:-}" ]] && cat "$4" >&2
  die "$2 did not listen on port $1 within 30 s"
}

# ---- start, and stop on the way out --------------------------------------------------------

work="$(mktemp -d "${TMPDIR:-/tmp}/shelf-real.XXXXXX")"
chmod 755 "$work"
pg_started="" redis_pid="" s3_pid=""
as_pg=()
if [[ $EUID -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || die "running as root needs a 'postgres' user for the Postgres server"
  as_pg=(runuser -u postgres --)
fi

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [[ -n "$s3_pid" ]] && kill "$s3_pid" 2>/dev/null && wait "$s3_pid" 2>/dev/null
  [[ -n "$redis_pid" ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
  [[ -n "$pg_started" ]] && "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t0=$(date +%s%3N)

# Postgres: a throwaway cluster, no durability (tests only), unix socket in the work dir.
pg_port="$(free_port)"
mkdir -p "$work/pg" "$work/pg-socket"
[[ ${#as_pg[@]} -eq 0 ]] || chown postgres: "$work/pg" "$work/pg-socket"
"${as_pg[@]}" "$PG_BIN/initdb" -D "$work/pg" -U postgres --auth=trust --encoding=UTF8 --no-locale --no-sync >"$work/initdb.log" 2>&1 ||
  { cat "$work/initdb.log" >&2; die "initdb failed"; }
pg_started=1
"${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$work/pg" -l "$work/pg-socket/postgres.log" -w -t 60 \
  -o "-p $pg_port -k $work/pg-socket -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$work/pg-socket/postgres.log" >&2; die "postgres did not start"; }
"${as_pg[@]}" "$PG_BIN/psql" -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "create database shelf_test" >/dev/null 2>&1 ||
  "${as_pg[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres shelf_test

# Redis: in memory only.
redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  --dir "$work" --logfile "$work/redis.log" &
redis_pid=$!

# s3rver: path-style S3 on a folder, the bucket created at start. s3rver makes the
# continuation token of a truncated ListObjectsV2 page with DES, which OpenSSL 3 (Node 17+)
# only has in its legacy provider: without it every list longer than max-keys (and so
# storage.ping() on a bucket with 2+ objects) answers 500 InternalError.
s3_port="$(free_port)"
mkdir -p "$work/s3"
node_flags=()
node --openssl-legacy-provider -e 0 2>/dev/null && node_flags+=(--openssl-legacy-provider)
node "${node_flags[@]}" "$repo/node_modules/s3rver/bin/s3rver.js" -d "$work/s3" -a 127.0.0.1 -p "$s3_port" \
  --configure-bucket shelf-test --silent >"$work/s3rver.log" 2>&1 &
s3_pid=$!

wait_port "$redis_port" redis-server "$redis_pid" "$work/redis.log"
wait_port "$s3_port" s3rver "$s3_pid" "$work/s3rver.log"

export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/shelf_test"
export REDIS_URL="redis://127.0.0.1:$redis_port"
export S3_BUCKET=shelf-test
export S3_ENDPOINT="http://127.0.0.1:$s3_port"
export S3_REGION=us-east-1
export S3_ACCESS_KEY_ID=S3RVER
export S3_SECRET_ACCESS_KEY=S3RVER
export JWT_SECRET="${JWT_SECRET:-real-parts-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}"

log "postgres $("$PG_BIN/postgres" --version | awk '{print $3}') :$pg_port, redis :$redis_port, s3rver :$s3_port (ready in $(($(date +%s%3N) - t0)) ms)"
log "running: $*"

# Not exec: the trap must run afterwards. The command's status becomes ours.
set +e
"$@"
status=$?
set -e
log "command exited $status"
exit "$status"
