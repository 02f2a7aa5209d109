# shelf: the compiled binary on Debian slim.
#
#   docker build -t shelf .
#   docker run -p 8080:8080 -v shelf-data:/data shelf            # embedded parts in /data
#   docker run ... -e DATABASE_URL=... -e REDIS_URL=... -e S3_BUCKET=... shelf serve --role api
#   docker run --rm -v shelf-data:/data shelf doctor              # with the server stopped
#                                                                 # (PGlite is one process's)
# The image holds /app/shelf and /app/lib/ (libvips, which sharp's embedded addon links
# against; see scripts/build.ts). The build stage's platform decides the binary's: build
# with --platform linux/arm64 for arm64 hosts.

# ---- build ---------------------------------------------------------------------------------
FROM oven/bun:1.4.5 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends make \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so a source change does not reinstall them (patches/: the fixes
# bun install applies to a dependency, named in package.json's patchedDependencies).
COPY package.json bun.lock bunfig.toml .bun-version ./
COPY patches/ patches/
RUN bun install --frozen-lockfile
COPY . .
RUN make build

# ---- run -----------------------------------------------------------------------------------
FROM debian:bookworm-slim
# ca-certificates: TLS to Postgres, Redis, S3 and webhooks. ffmpeg: local video transcoding
# on worker nodes. curl: the health check.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates ffmpeg curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 shelf \
 && useradd --system --uid 10001 --gid shelf --home-dir /data --no-create-home --shell /usr/sbin/nologin shelf \
 && mkdir -p /data \
 && chown shelf:shelf /data

COPY --from=build /src/dist/ /app/

# The binary writes its embedded sharp addon to TMPDIR once per start and loads it from
# there: with a read-only root filesystem, mount a writable /tmp (e.g. --tmpfs /tmp).
ENV DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080 \
    TMPDIR=/tmp
VOLUME ["/data"]
EXPOSE 8080
USER shelf
WORKDIR /app

# shelf handles SIGTERM itself (finishes in-flight requests within SHUTDOWN_GRACE_MS, then
# exits 0), so it can run as PID 1; give `docker stop` a longer -t than that grace period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD curl -fsS -o /dev/null "http://127.0.0.1:${PORT}/health" || exit 1

ENTRYPOINT ["/app/shelf"]
CMD ["serve"]
