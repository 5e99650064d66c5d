#!/bin/sh
# Runs match.py in its own virtual environment (tools/match/.venv), installing python-chess
# from PyPI on first use.
set -e
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$here/.venv/bin/python" ]; then
    python3 -m venv "$here/.venv"
    "$here/.venv/bin/pip" install -q -r "$here/requirements.txt"
fi
exec "$here/.venv/bin/python" "$here/match.py" "$@"
