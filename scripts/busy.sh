#!/usr/bin/env bash
# Runs a command while one busy loop per core competes with it for the CPU, as another
# tenant of a shared CI machine would; the loops stop when the command ends.
#
#   bash scripts/busy.sh bun test        # what `make test-busy` and CI run
set -uo pipefail
if [[ $# -eq 0 ]]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi
loops=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT
echo "busy.sh: ${#loops[@]} busy loops running; running: $*" >&2
"$@"
