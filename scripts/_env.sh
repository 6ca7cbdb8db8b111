# Shared by scripts/serve and scripts/test: a virtual environment in .venv with the project installed,
# reinstalled whenever pyproject.toml or constraints.txt change. Pinned versions come from constraints.txt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
EXTRAS="${1:-}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "tablelog needs Python 3.11 or newer (found: $("$PYTHON" --version 2>&1))" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
stamp=".venv/.tablelog-installed${EXTRAS:+-$EXTRAS}"
want="$(cat pyproject.toml constraints.txt | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -c constraints.txt -e ".${EXTRAS:+[$EXTRAS]}"
    echo "$want" > "$stamp"
fi
