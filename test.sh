#!/usr/bin/env bash
# Install everything the tests need, then run every test.
#
#   ./test.sh            the whole suite (what CI runs)
#   ./test.sh -k reprieve    extra arguments go to pytest
#
# It installs the package with its test dependencies (pip builds the compiled
# solver core), Debian's Chromium for the browser tests and Debian's
# PostgreSQL for the storage tests when they are missing. It never downloads
# a browser of its own.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} from Debian"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

"$PYTHON" -m pip install --quiet --disable-pip-version-check -e '.[test]'

echo "test.sh: ruff"
"$PYTHON" -m ruff check src tests bench
"$PYTHON" -m ruff format --check --quiet src tests bench
echo "test.sh: mypy --strict"
"$PYTHON" -m mypy --strict src/milligan

echo "test.sh: pytest"
set +e
"$PYTHON" -m pytest "$@"
status=$?
set -e
if [ "$status" = 5 ]; then
  echo "test.sh: pytest collected no tests: that is a failure" >&2
  exit 1
fi
exit "$status"
