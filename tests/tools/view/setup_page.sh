#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Prepares a copy of tools/view/page in the build tree for the tests that
# run the page's JavaScript (unit tests, browser tests): the sources are
# copied afresh each time, node_modules (playwright-core, from the npm
# registry) is installed with `npm ci` only when package-lock.json changed
# since the last install, so repeated test runs need no network.
#
#   setup_page.sh SOURCE_PAGE_DIR COPY_DIR
#
# Exit status 77 (skipped) when node or npm is not installed.
set -euo pipefail
src=$1 dest=$2
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "setup_page: node and npm are not installed (scripts/install-deps installs them): skipped"
    exit 77
fi
mkdir -p "$dest"
for part in src test dist; do
    rm -rf "${dest:?}/$part"
    cp -R "$src/$part" "$dest/$part"
done
cp "$src/index.html" "$src/view.css" "$src/build.mjs" "$src/package.json" \
    "$src/package-lock.json" "$dest/"
stamp=$dest/node_modules/.weft-package-lock.json
if ! cmp -s "$src/package-lock.json" "$stamp"; then
    (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$src/package-lock.json" "$stamp"
fi
echo "setup_page: $dest is ready ($(node --version), $(cd "$dest" && node -e \
    "console.log('playwright-core ' + require('playwright-core/package.json').version)"))"
