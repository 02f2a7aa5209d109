#!/usr/bin/env bash
# `make image-test`: runs the built image (shelf:local, or IMAGE) as an operator would and
# checks it, timing each step:
#
#   serve on embedded parts with a volume for /data: GET /ready 200; the image's
#   HEALTHCHECK passes (podman); the process runs as the non-root user; sign-up, an API key,
#   an image upload read back through the edge (WebP and original); SIGTERM (`stop`) exits
#   0 within SHUTDOWN_GRACE_MS; a new container on the same volume is ready and still has
#   the account, the key and the image; `doctor` inside the image passes with ffmpeg found
#   (with the server stopped: PGlite is one process's); the image size.
#
# Host networking (the setting that works on the CI machines), on a free port.
# Any failure exits non-zero with a line saying what failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/container/env.sh
IMAGE="${IMAGE:-shelf:local}"
READY_TIMEOUT_S=90
# The server's default SHUTDOWN_GRACE_MS is 10 s; a clean stop must come within it, and the
# engine's own SIGKILL only after a longer wait, so a hung shutdown shows as exit 137.
GRACE_S=10
STOP_TIMEOUT_S=$((GRACE_S + 20))

if [ "$ENGINE" = docker ]; then ctr=(docker); else ctr=("${PODMAN[@]}"); fi
fail() { echo "image-test: FAIL: $*" >&2; exit 1; }
t_step=$SECONDS
step() {
  [ -n "${step_name:-}" ] && echo "   ($((SECONDS - t_step)) s)"
  step_name="$*"; t_step=$SECONDS
  echo "== $*"
}

"${ctr[@]}" image inspect "$IMAGE" >/dev/null 2>&1 || fail "$IMAGE not found (make image)"
work="$(mktemp -d "${TMPDIR:-/tmp}/shelf-image-test.XXXXXX")"
vol="shelf-image-test-$$"
name="shelf-image-test-$$"
cleanup() {
  "${ctr[@]}" rm -f "$name" >/dev/null 2>&1 || true
  "${ctr[@]}" volume rm -f "$vol" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"${ctr[@]}" volume create "$vol" >/dev/null

port="$(bun -e 'const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(s.port); s.stop(true);')"
base="http://127.0.0.1:$port"

start() { # a new container on the volume
  "${ctr[@]}" rm -f "$name" >/dev/null 2>&1 || true
  "${ctr[@]}" run -d --name "$name" --network host -v "$vol:/data" -e "PORT=$port" -e "SHUTDOWN_GRACE_MS=$((GRACE_S * 1000))" "$IMAGE" serve >/dev/null
}
wait_ready() {
  local deadline=$((SECONDS + READY_TIMEOUT_S)) code
  while :; do
    [ "$("${ctr[@]}" inspect -f '{{.State.Running}}' "$name")" = true ] || { "${ctr[@]}" logs "$name" >&2; fail "the container exited before /ready"; }
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$base/ready" || true)"
    [ "$code" = 200 ] && return
    [ $SECONDS -lt $deadline ] || { "${ctr[@]}" logs "$name" >&2; fail "/ready not 200 after ${READY_TIMEOUT_S}s (last: $code)"; }
    sleep 0.2
  done
}
stop() { # SIGTERM via the engine; exit 0 within the grace
  local t0 rc took
  t0="$(date +%s%3N)"
  "${ctr[@]}" stop -t "$STOP_TIMEOUT_S" "$name" >/dev/null
  took=$(($(date +%s%3N) - t0))
  rc="$("${ctr[@]}" inspect -f '{{.State.ExitCode}}' "$name")"
  [ "$rc" = 0 ] || { "${ctr[@]}" logs "$name" >&2; fail "exit code $rc after SIGTERM (expected 0)"; }
  [ "$took" -le $((GRACE_S * 1000)) ] || fail "stopping took ${took} ms (grace ${GRACE_S} s)"
  echo "exit 0 after ${took} ms"
}
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$2" | head -1; }

step "serve with a volume for /data: GET /ready"
start
wait_ready
echo "GET /ready -> $(curl -s "$base/ready")"

if [ "$ENGINE" = podman ]; then
  step "the image's HEALTHCHECK"
  "${ctr[@]}" healthcheck run "$name" || fail "healthcheck run failed"
  echo "healthy"
fi

step "the server runs as the non-root user"
uid="$("${ctr[@]}" exec "$name" stat -c %u /proc/1)"
user="$("${ctr[@]}" exec "$name" id -un)"
[ "$uid" != 0 ] || fail "PID 1 runs as root"
echo "PID 1 uid $uid ($user)"

step "sign up, an API key, an image upload read back through the edge"
code="$(curl -s -o "$work/signup.json" -w '%{http_code}' -H 'content-type: application/json' \
  -d '{"email":"image@example.test","password":"image test password"}' "$base/v1/auth/signup")"
[ "$code" = 201 ] || fail "signup answered $code: $(cat "$work/signup.json")"
jwt="$(field accessToken "$work/signup.json")"
code="$(curl -s -o "$work/key.json" -w '%{http_code}' -H "authorization: Bearer $jwt" -H 'content-type: application/json' \
  -d '{"name":"image-test"}' "$base/v1/api-keys")"
[ "$code" = 201 ] || fail "key creation answered $code: $(cat "$work/key.json")"
key="$(field key "$work/key.json")"
# A 1x1 PNG: sharp (the embedded addon and /app/lib's libvips) decodes it and makes its WebP.
echo 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC' | base64 -d >"$work/pixel.png"
code="$(curl -s -o "$work/upload.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/pixel.png" "$base/v1/images")"
[ "$code" = 201 ] || fail "image upload answered $code: $(cat "$work/upload.json")"
id="$(field id "$work/upload.json")"
read_back() {
  local got
  got="$(curl -s -o "$work/pixel.webp" -w '%{http_code} %{content_type}' -H 'accept: image/webp,*/*' "$base/media/$id.png")"
  [ "$got" = "200 image/webp" ] || fail "edge answered '$got' for a WebP-capable client"
  [ "$(head -c 4 "$work/pixel.webp")" = RIFF ] || fail "the WebP rendition is not a WebP file"
  got="$(curl -s -o "$work/pixel.out" -w '%{http_code} %{content_type}' -H 'accept: */*' "$base/media/$id.png")"
  [ "$got" = "200 image/png" ] || fail "edge answered '$got' for a */* client"
  cmp -s "$work/pixel.png" "$work/pixel.out" || fail "the original read back differs from the upload"
}
read_back
echo "uploaded $id; the edge served image/webp and the original PNG"

step "SIGTERM: a clean exit within the grace"
stop

step "a new container on the same volume: the data is there"
start
wait_ready
read_back
code="$(curl -s -o "$work/list.json" -w '%{http_code}' -H "authorization: Bearer $key" "$base/v1/images")"
[ "$code" = 200 ] || fail "GET /v1/images with the API key answered $code after the restart: $(cat "$work/list.json")"
grep -q "\"id\":\"$id\"" "$work/list.json" || fail "the image is not listed after the restart: $(cat "$work/list.json")"
echo "ready again; the API key works and $id is listed and served"
stop

step "doctor inside the image (server stopped, same volume)"
"${ctr[@]}" run --rm --network host -v "$vol:/data" "$IMAGE" doctor >"$work/doctor.out" 2>&1 \
  || { cat "$work/doctor.out" >&2; fail "doctor exited non-zero"; }
cat "$work/doctor.out"
grep -Eq 'ffmpeg.*ok|ok.*ffmpeg' "$work/doctor.out" || fail "doctor did not find ffmpeg"

step "image size"
size="$("${ctr[@]}" image inspect -f '{{.Size}}' "$IMAGE")"
echo "$IMAGE: $((size / 1000000)) MB"
step "done"
echo "image-test: OK"
