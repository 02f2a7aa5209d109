#!/bin/sh
# The postgres image's interface, as compose.yaml uses it: a cluster in PGDATA made on the
# first start with POSTGRES_USER (superuser) / POSTGRES_PASSWORD and the database
# POSTGRES_DB, password (scram) logins over TCP, trust on the local socket (pg_isready).
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 0700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pw"
  chown postgres "$pw"
  runuser -u postgres -- "$bin/initdb" -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pw" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    # Single-user mode: no server listens before the database exists.
    echo "CREATE DATABASE \"$POSTGRES_DB\" OWNER \"$POSTGRES_USER\";" \
      | runuser -u postgres -- "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec runuser -u postgres -- "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
