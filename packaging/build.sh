#!/usr/bin/env bash
# Build the double-click app: dist/evaleditor/ (one folder, windowed) with dist/evaleditor/evaleditor.
#
#   bash packaging/build.sh
#
# Uses the project's .venv (python3 dev.py setup makes or refreshes it, and on Linux checks Qt's
# system libraries), adds the packaging tools from packaging/requirements.txt, then runs PyInstaller
# on packaging/evaleditor.spec. Works from a clean checkout; run it again to rebuild from scratch.
# On macOS the same steps also leave dist/evaleditor.app. On Windows run the pyinstaller line of
# the spec's docstring by hand.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"

"$PYTHON" dev.py setup
VENV_PY="$ROOT/.venv/bin/python"
"$VENV_PY" -m pip install --quiet --disable-pip-version-check -r packaging/requirements.txt

rm -rf build/pyinstaller dist/evaleditor dist/evaleditor.app
"$VENV_PY" -m PyInstaller packaging/evaleditor.spec --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller

APP="dist/evaleditor/evaleditor"
[ -x "$APP" ] || { echo "build.sh: $APP was not built" >&2; exit 1; }
"$APP" --version
echo "build.sh: $(du -sh dist/evaleditor | cut -f1) in dist/evaleditor/ — run $APP, or install it with bash packaging/linux/install.sh"
