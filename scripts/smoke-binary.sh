#!/usr/bin/env bash
# Smoke test of the compiled binary, as an operator would run it: dist/ copied to a fresh
# folder, started from another working directory on a fresh DATA_DIR, with no source tree
# or node_modules in reach (hidden outright when the machine allows a private mount).
#
#   shelf --version, shelf doctor (converts an image with sharp), shelf migrate,
#   shelf serve: time to GET /ready = 200 (every part answers) on the first start (unpacks
#   the database image the binary carries) and on a second start on the same DATA_DIR
#   (limits below), GET /health
#   (liveness) 200, an unknown route answers
#   the 404 JSON envelope with x-request-id, the API reference page and the Swagger UI
#   files it loads (embedded), sign-up + API key + image upload read back
#   from the edge (WebP and original), an SVG upload sanitized by the embedded worker and
#   a deeply nested one refused, a Typst upload rendered to PDF (dist/lib/'s compiler),
#   SIGTERM exits 0.
#
# Usage: bash scripts/smoke-binary.sh [dist-dir]   (default: dist/, built when absent)
# Any failure exits non-zero with a line saying what failed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="${1:-$repo/dist}"
[[ "$dist" == /* ]] || dist="$PWD/$dist"
# The targets are a first start under 2 s and later starts under 0.5 s (issue 10; `make
# bench` section (f) prints the medians over several starts). One start timed on a shared
# CI machine, where other jobs may hold every core, takes a few times as long (seen here on
# the 2-core machine under a load of 4-6: first starts 0.8-3.3 s, later 0.5-1.7 s), so this
# asserts 3x the first-start target and 4x the later one: loose enough not to fail on a
# busy runner, tight enough to catch initdb back at first start (5-10 s) or a later start
# gone slow.
FIRST_START_LIMIT_MS=6000
SECOND_START_LIMIT_MS=2000
HEALTH_TIMEOUT_S=60

fail() {
  echo "smoke: FAIL: $*" >&2
  exit 1
}
step() { echo "== $*"; }

if [[ ! -x "$dist/shelf" ]]; then
  [[ $# -eq 0 ]] || fail "$dist/shelf not found"
  step "building dist/ (make build)"
  (cd "$repo" && bun scripts/build.ts)
fi
[[ -d "$dist/lib" ]] || fail "$dist/lib is missing (the binary needs it beside it)"
command -v curl >/dev/null || fail "curl is required"

work="$(mktemp -d "${TMPDIR:-/tmp}/shelf-smoke.XXXXXX")"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/app" "$work/cwd"
cp -R "$dist/." "$work/app/"
shelf="$work/app/shelf"
cd "$work/cwd"

# Only what the binary needs: no inherited DATABASE_URL / REDIS_URL / S3_* (embedded parts).
run_env=(env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$work" "TMPDIR=$work" "DATA_DIR=$work/data" "LOG_LEVEL=info")

now_ms() { date +%s%3N; }

free_port() {
  bun -e 'const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(s.port); s.stop(true);' 2>/dev/null && return
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  fail "no free port found"
}

step "shelf --version"
version="$("${run_env[@]}" "$shelf" --version)" || fail "--version exited $?"
expected="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$repo/package.json" | head -1)"
[[ "$version" == "$expected" ]] || fail "--version printed '$version', package.json says '$expected'"
echo "$version"

step "shelf doctor"
"${run_env[@]}" "$shelf" doctor || fail "doctor exited $?"
# With the source tree hidden, nothing can come from node_modules: PGlite's files, the
# migrations and sharp's addon must all be inside the binary (libvips in lib/).
if [[ $EUID -eq 0 ]] && unshare -m true 2>/dev/null; then
  step "shelf doctor with $repo hidden (private mount)"
  hidden_data="$work/data-hidden"
  unshare -m bash -c 'mount -t tmpfs none "$1" && shift && exec "$@"' _ "$repo" \
    env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$work" "TMPDIR=$work" "DATA_DIR=$hidden_data" "$shelf" doctor \
    || fail "doctor failed with the source tree hidden: the binary depends on files outside dist/"
  rm -rf "$hidden_data"
else
  echo "(skipped the hidden-source-tree run: needs root and unshare -m)"
fi

step "shelf migrate"
out="$("${run_env[@]}" "$shelf" migrate)" || fail "migrate exited $?"
echo "$out"
[[ "$out" == *"database is up to date"* ]] || fail "migrate did not report an up-to-date database"

start_server() { # $1 = log file; sets server_pid and port
  port="$(free_port)"
  "${run_env[@]}" "PORT=$port" "HOST=127.0.0.1" "$shelf" serve >"$1" 2>&1 &
  server_pid=$!
}

wait_healthy() { # prints milliseconds until /ready answered 200 (database, kv and storage answer)
  local t0 deadline code
  t0="$(now_ms)"
  deadline=$((t0 + HEALTH_TIMEOUT_S * 1000))
  while :; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      cat "$1" >&2
      fail "server exited before it was healthy"
    fi
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/ready" || true)"
    [[ "$code" == 200 ]] && break
    if (($(now_ms) > deadline)); then
      cat "$1" >&2
      fail "/ready not 200 after ${HEALTH_TIMEOUT_S}s (last: $code)"
    fi
    sleep 0.05
  done
  echo $(($(now_ms) - t0))
}

stop_server() { # SIGTERM, expect exit 0 within the grace period
  local rc=0
  kill -TERM "$server_pid"
  for _ in $(seq 300); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.05; done
  kill -0 "$server_pid" 2>/dev/null && { cat "$1" >&2; fail "server still running 15 s after SIGTERM"; }
  wait "$server_pid" || rc=$?
  server_pid=""
  [[ $rc -eq 0 ]] || { cat "$1" >&2; fail "serve exited $rc after SIGTERM (expected 0)"; }
}

# The first start opens the database `doctor` and `migrate` created; a brand-new DATA_DIR
# is the cold start an operator sees on a first install, so start on one.
rm -rf "$work/data"

step "shelf serve: first start (new DATA_DIR)"
start_server "$work/serve1.log"
first_ms="$(wait_healthy "$work/serve1.log")"
echo "healthy after ${first_ms} ms (first start: unpacks the database image, no migration to apply)"
((first_ms < FIRST_START_LIMIT_MS)) || fail "first start took ${first_ms} ms (limit ${FIRST_START_LIMIT_MS} ms)"
# The image is made with every migration of this build: a first start applying any means
# the image is missing or stale (scripts/build.ts).
! grep -q '"migrations applied"' "$work/serve1.log" || fail "the first start applied migrations: the embedded database image is stale"

body="$(curl -s -D "$work/headers" "http://127.0.0.1:$port/ready")"
echo "GET /ready -> $body"
code="$(curl -s -o "$work/live.json" -w '%{http_code}' "http://127.0.0.1:$port/health")"
[[ "$code" == 200 ]] || fail "GET /health (liveness) answered $code"
echo "GET /health -> $(cat "$work/live.json")"

step "unknown route -> 404 envelope with x-request-id"
code="$(curl -s -o "$work/404.json" -D "$work/404.headers" -w '%{http_code}' "http://127.0.0.1:$port/no/such/route")"
[[ "$code" == 404 ]] || fail "GET /no/such/route answered $code, expected 404"
grep -qi '^x-request-id: *[^[:space:]]' "$work/404.headers" || fail "404 has no x-request-id header"
grep -qi '^content-type: *application/json' "$work/404.headers" || fail "404 is not JSON"
tr -d ' \n' <"$work/404.json" | grep -q '"success":false' || fail "404 body is not the error envelope: $(cat "$work/404.json")"
grep -q '"code"' "$work/404.json" || fail "404 body has no error code: $(cat "$work/404.json")"
echo "$(cat "$work/404.json") (x-request-id: $(grep -i '^x-request-id' "$work/404.headers" | cut -d' ' -f2 | tr -d '\r'))"

step "API reference: the page and the UI it loads, from the binary"
code="$(curl -s -o "$work/swagger.html" -D "$work/swagger.headers" -w '%{http_code}' "http://127.0.0.1:$port/swagger")"
[[ "$code" == 200 ]] || fail "GET /swagger answered $code"
grep -qi "^content-security-policy: *default-src 'none'" "$work/swagger.headers" || fail "/swagger has no Content-Security-Policy"
assets="$(sed -n 's/.*\(src\|href\)="\(\/swagger\/assets\/[^"]*\)".*/\2/p' "$work/swagger.html")"
[[ "$(echo "$assets" | grep -c .)" == 2 ]] || fail "/swagger names no script and stylesheet under /swagger/assets: $(cat "$work/swagger.html")"
! grep -q 'https\?://' "$work/swagger.html" || fail "/swagger loads something from another origin: $(grep -o 'https\?://[^"]*' "$work/swagger.html")"
for asset in $assets; do
  got="$(curl -s -o "$work/asset" -w '%{http_code} %{content_type} %{size_download}' "http://127.0.0.1:$port$asset")"
  echo "GET $asset -> $got"
  case "$asset" in
    *.js) [[ "$got" == "200 text/javascript"* ]] && grep -q SwaggerUIBundle "$work/asset" || fail "GET $asset is not Swagger UI's script: '$got'" ;;
    *.css) [[ "$got" == "200 text/css"* ]] && grep -q '\.swagger-ui' "$work/asset" || fail "GET $asset is not Swagger UI's stylesheet: '$got'" ;;
    *) fail "/swagger names an unexpected asset $asset" ;;
  esac
done

step "dashboard: the page at the root, its script, the chunks it imports and its stylesheet, from the binary"
code="$(curl -s -o "$work/center.html" -D "$work/center.headers" -w '%{http_code}' "http://127.0.0.1:$port/")"
[[ "$code" == 200 ]] || fail "GET / answered $code"
grep -qi "^content-security-policy: *default-src 'none'; script-src 'self';" "$work/center.headers" || fail "/ has no strict Content-Security-Policy"
assets="$(grep -o '\(src\|href\)="/_center/[^"]*"' "$work/center.html" | sed 's/.*="\(.*\)"/\1/')"
[[ "$(echo "$assets" | grep -c .)" == 2 ]] || fail "/ names no script and stylesheet under /_center: $(cat "$work/center.html")"
for asset in $assets; do
  got="$(curl -s -o "$work/asset" -w '%{http_code} %{content_type} %{size_download}' "http://127.0.0.1:$port$asset")"
  echo "GET $asset -> $got"
  case "$asset" in
    *.js)
      [[ "$got" == "200 text/javascript"* ]] && grep -q '/v1/uploads' "$work/asset" || fail "GET $asset is not the dashboard's script: '$got'"
      # The chunks (hls.js among them) are imported by names relative to the entry's URL.
      chunks="$(grep -o '"\./chunk\.[^"]*\.js"' "$work/asset" | tr -d '"' | sed 's#^\./##' | sort -u)"
      [[ -n "$chunks" ]] || fail "GET $asset imports no chunk: the client was not split"
      for chunk in $chunks; do
        got="$(curl -s -o /dev/null -w '%{http_code} %{content_type} %{size_download}' "http://127.0.0.1:$port/_center/$chunk")"
        echo "GET /_center/$chunk -> $got"
        [[ "$got" == "200 text/javascript"* ]] || fail "GET /_center/$chunk (a chunk the script imports) answered '$got'"
      done
      ;;
    *.css) [[ "$got" == "200 text/css"* ]] && grep -q '\.dropzone' "$work/asset" || fail "GET $asset is not the dashboard's stylesheet: '$got'" ;;
    *) fail "/ names an unexpected asset $asset" ;;
  esac
done

step "sign up, create an API key, upload an image and read it back from the edge"
base="http://127.0.0.1:$port"
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" "$2" | head -1; }
code="$(curl -s -o "$work/signup.json" -w '%{http_code}' -H 'content-type: application/json' \
  -d '{"email":"smoke@example.test","password":"smoke test password"}' "$base/v1/auth/signup")"
[[ "$code" == 201 ]] || fail "signup answered $code: $(cat "$work/signup.json")"
jwt="$(field accessToken "$work/signup.json")"
code="$(curl -s -o "$work/key.json" -w '%{http_code}' -H "authorization: Bearer $jwt" -H 'content-type: application/json' \
  -d '{"name":"smoke"}' "$base/v1/api-keys")"
[[ "$code" == 201 ]] || fail "key creation answered $code: $(cat "$work/key.json")"
key="$(field key "$work/key.json")"
# A 1x1 PNG: sharp (embedded addon + dist/lib/libvips) must decode it and make its WebP.
echo 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC' | base64 -d >"$work/pixel.png"
code="$(curl -s -o "$work/upload.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/pixel.png" "$base/v1/images")"
[[ "$code" == 201 ]] || fail "image upload answered $code: $(cat "$work/upload.json")"
id="$(field id "$work/upload.json")"
webp="$(curl -s -o "$work/pixel.webp" -w '%{http_code} %{content_type}' -H 'accept: image/webp,*/*' "$base/media/$id.png")"
[[ "$webp" == "200 image/webp" ]] || fail "edge answered '$webp' for a WebP-capable client"
[[ "$(head -c 4 "$work/pixel.webp")" == RIFF ]] || fail "the WebP rendition is not a WebP file"
orig="$(curl -s -o "$work/pixel.out" -w '%{http_code} %{content_type}' -H 'accept: */*' "$base/media/$id.png")"
[[ "$orig" == "200 image/png" ]] || fail "edge answered '$orig' for a */* client"
echo "uploaded $id; edge served image/webp and image/png"

step "upload an SVG: sanitized by the worker embedded in the binary"
cat >"$work/logo.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="24" height="16" onload="alert(1)"><script>alert(2)</script><rect width="24" height="16" fill="teal"/></svg>
SVG
code="$(curl -s -o "$work/svg.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/logo.svg" "$base/v1/images")"
[[ "$code" == 201 ]] || fail "SVG upload answered $code: $(cat "$work/svg.json")"
svg_id="$(field id "$work/svg.json")"
got="$(curl -s -o "$work/logo.out" -w '%{http_code} %{content_type}' "$base/media/$svg_id.svg")"
[[ "$got" == "200 image/svg+xml" ]] || fail "edge answered '$got' for the SVG"
grep -q '<rect' "$work/logo.out" || fail "the stored SVG lost its drawing: $(cat "$work/logo.out")"
! grep -qi 'script\|onload' "$work/logo.out" || fail "the stored SVG still has a script or handler: $(cat "$work/logo.out")"
# 10,000 nested groups: refused by the streaming pre-check, before any DOM is built.
{ printf '<svg xmlns="http://www.w3.org/2000/svg">'; for _ in $(seq 1000); do printf '<g><g><g><g><g><g><g><g><g><g>'; done; } >"$work/deep.svg"
code="$(curl -s -o "$work/deep.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/deep.svg" "$base/v1/images")"
[[ "$code" == 422 ]] || fail "a 10,000-deep SVG answered $code (expected 422): $(cat "$work/deep.json")"
echo "uploaded $svg_id (script and handler removed); a 10,000-deep SVG was refused with 422"

step "a Typst document: title from its heading, compile check, PDF render by the compiler process"
printf '= Smoke Paper\n\nHello from the binary.\n' >"$work/paper.typ"
code="$(curl -s -o "$work/typ.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/paper.typ" "$base/v1/docs")"
[[ "$code" == 201 ]] || fail "Typst upload answered $code: $(cat "$work/typ.json")"
grep -q '"title":"Smoke Paper"' "$work/typ.json" || fail "the Typst title is not its heading: $(cat "$work/typ.json")"
grep -q '"warnings":\[\]' "$work/typ.json" || fail "the Typst check warned (compiler missing?): $(cat "$work/typ.json")"
typ_id="$(field id "$work/typ.json")"
got="$(curl -s -o "$work/paper.pdf" -w '%{http_code} %{content_type}' -H "authorization: Bearer $key" "$base/v1/docs/$typ_id/render?format=pdf")"
[[ "$got" == "200 application/pdf" ]] || fail "render answered '$got': $(head -c 300 "$work/paper.pdf")"
[[ "$(head -c 5 "$work/paper.pdf")" == "%PDF-" ]] || fail "the render is not a PDF"
echo "uploaded $typ_id (title from its heading, no warnings); rendered a PDF of $(wc -c <"$work/paper.pdf") bytes"

step "a Markdown document: frontmatter title and tags (markdown-it and yaml, loaded at first use, are in the binary)"
printf -- '---\ntitle: Smoke Note\ntags: [smoke]\n---\n# Heading\n\nSome *text*.\n' >"$work/note.md"
code="$(curl -s -o "$work/md.json" -w '%{http_code}' -H "authorization: Bearer $key" -F "file=@$work/note.md" "$base/v1/docs")"
[[ "$code" == 201 ]] || fail "Markdown upload answered $code: $(cat "$work/md.json")"
grep -q '"title":"Smoke Note"' "$work/md.json" || fail "the Markdown title is not its frontmatter's: $(cat "$work/md.json")"
echo "uploaded $(field id "$work/md.json") (title from its frontmatter)"

step "shelf mcp: the binary's MCP server over stdio, with the API key, against the running server"
coproc MCP { SHELF_URL="$base" SHELF_API_KEY="$key" "$dist/shelf" mcp 2>"$work/mcp.err"; }
mcp_line() {
  local line
  IFS= read -r -t 30 line <&"${MCP[0]}" || fail "shelf mcp did not answer: $(cat "$work/mcp.err")"
  printf '%s' "$line"
}
echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}' >&"${MCP[1]}"
init="$(mcp_line)"
[[ "$init" == *'"serverInfo":{"name":"shelf"'* ]] || fail "initialize answered: $init"
echo '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&"${MCP[1]}"
echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_media","arguments":{"type":"image"}}}' >&"${MCP[1]}"
listed="$(mcp_line)"
[[ "$listed" == *"\"id\":\"$id\""* ]] || fail "list_media did not list the uploaded image: $listed"
exec {MCP[1]}>&-
wait "$MCP_PID" || fail "shelf mcp exited $? when its input closed: $(cat "$work/mcp.err")"
echo "initialize and list_media answered over stdio; the uploaded image was listed"

step "SIGTERM -> exit 0"
stop_server "$work/serve1.log"
echo "stopped cleanly"

step "shelf serve: second start (existing DATA_DIR)"
start_server "$work/serve2.log"
second_ms="$(wait_healthy "$work/serve2.log")"
echo "healthy after ${second_ms} ms"
stop_server "$work/serve2.log"
((second_ms < SECOND_START_LIMIT_MS)) || fail "second start took ${second_ms} ms (limit ${SECOND_START_LIMIT_MS} ms)"

echo "smoke: OK  (binary $(du -h "$dist/shelf" | cut -f1), first start ${first_ms} ms, second start ${second_ms} ms)"
