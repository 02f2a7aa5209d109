# Sourced by the container scripts: the engine and its settings.
# ENGINE is docker when a Docker daemon answers, else podman (buildah builds).
export CONTAINERS_CONF="${CONTAINERS_CONF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf}"
if [ -z "${ENGINE:-}" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker; else ENGINE=podman; fi
fi
export ENGINE
# podman flags that work here (see containers.conf for the rest).
PODMAN=(podman --runtime runc --cgroup-manager cgroupfs)
# podman schedules a HEALTHCHECK with systemd timers; there is no systemd here (an error
# line per container otherwise). `podman healthcheck run` still runs it on demand.
export DISABLE_HC_SYSTEMD=true
# buildah bud arguments: the host's CA bundle when it trusts a proxy's CA (HOST_CA_BUNDLE,
# else the one NODE_EXTRA_CA_CERTS / CURL_CA_BUNDLE name), mounted read-only into the build
# steps only (never in an image), and named to curl and Bun there.
CA_ARGS=()
_ca="${HOST_CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-${CURL_CA_BUNDLE:-}}}"
if [ -n "$_ca" ] && [ -s "$_ca" ]; then
  CA_ARGS=(-v "$_ca:/run/host-ca.crt:ro" --build-arg CURL_CA_BUNDLE=/run/host-ca.crt --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt)
fi
