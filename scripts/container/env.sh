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
