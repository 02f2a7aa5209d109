# shelf: the compiled binary on Debian slim.
#
#   docker build -t shelf .
#   make image                                                    # shelf:local: docker, else
#                                                                 # buildah (docs/operators.md)
#   docker run -p 8080:8080 -v shelf-data:/data shelf            # embedded parts in /data
#   docker run ... -e DATABASE_URL=... -e REDIS_URL=... -e S3_BUCKET=... shelf serve --role api
#   docker run --rm -v shelf-data:/data shelf doctor              # with the server stopped
#                                                                 # (PGlite is one process's)
# The image holds /app/shelf and /app/lib/ (libvips, which sharp's embedded addon links
# against; see scripts/build.ts). The build stage's platform decides the binary's: build
# with --platform linux/arm64 for arm64 hosts.

# The bases are build arguments so the same file builds where the public images cannot be
# pulled: `make image` on such a machine passes a Debian bookworm base made with
# debootstrap (scripts/container/base.sh) for both. A build base without Bun gets it from
# the npm registry (the @oven/bun-linux-* package of the version in .bun-version).
ARG BUILD_BASE=oven/bun:1.4.5
ARG RUN_BASE=debian:bookworm-slim

# ---- build ---------------------------------------------------------------------------------
FROM ${BUILD_BASE} AS build
ARG NPM_REGISTRY=https://registry.npmjs.org
# Behind a TLS-inspecting proxy, `make image` mounts the host's CA bundle into the build
# steps and names it here (nothing of it stays in an image); unset elsewhere.
ARG CURL_CA_BUNDLE
ARG NODE_EXTRA_CA_CERTS
RUN apt-get update \
 && apt-get install -y --no-install-recommends make ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY .bun-version ./
RUN if ! command -v bun >/dev/null; then \
      case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=aarch64 ;; *) echo "no Bun for $(uname -m)" >&2; exit 1 ;; esac \
      && v="$(cat .bun-version)" \
      && curl -fsSL "${NPM_REGISTRY%/}/@oven/bun-linux-${arch}/-/bun-linux-${arch}-${v}.tgz" | tar -xz -C /tmp \
      && install -m 0755 /tmp/package/bin/bun /usr/local/bin/bun \
      && rm -rf /tmp/package; \
    fi \
 && bun --version
# Dependencies first, so a source change does not reinstall them (patches/: the fixes
# bun install applies to a dependency, named in package.json's patchedDependencies).
COPY package.json bun.lock bunfig.toml ./
COPY patches/ patches/
RUN bun install --frozen-lockfile
COPY . .
RUN make build

# ---- run -----------------------------------------------------------------------------------
FROM ${RUN_BASE}
# ca-certificates: TLS to Postgres, Redis, S3 and webhooks. ffmpeg: local video transcoding
# on worker nodes. curl: the health check.
# ffmpeg's libraries (libavdevice's SDL and X11 outputs) pull Mesa's OpenGL drivers and the
# LLVM and Z3 libraries only those drivers link, about 160 MB that transcoding never loads
# (no GL context is opened): dpkg leaves those files out; the packages stay installed, so
# apt in an image built on this one still works.
RUN printf '%s\n' 'path-exclude /usr/lib/*/dri/*' 'path-exclude /usr/lib/*/libLLVM-*' 'path-exclude /usr/lib/*/libz3.so*' \
      >/etc/dpkg/dpkg.cfg.d/shelf-no-gl-drivers \
 && apt-get update \
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

STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/shelf"]
CMD ["serve"]
