#!/usr/bin/env bash
# The documentation site builds with `mkdocs build --strict` (a broken link between pages, a
# page in the nav that does not exist: fails) and every page under docs/ is in mkdocs.yml's
# nav (an orphan page fails too: MkDocs only mentions it).
#   docs_site_check.sh SOURCE_DIR OUT_DIR
set -uo pipefail
src=$1
out=$2
command -v mkdocs > /dev/null || { echo "mkdocs is not installed (tools/install-deps.sh installs it)"; exit 1; }
cd "$src" || exit 1
log=$(mkdocs build --strict --clean --site-dir "$out" 2>&1)
rc=$?
echo "$log"
[ "$rc" -eq 0 ] || { echo "FAIL: mkdocs build --strict exited $rc"; exit 1; }
if grep -q 'not included in the "nav"' <<< "$log"; then
  echo "FAIL: pages under docs/ that mkdocs.yml's nav does not list (above)"
  exit 1
fi
pages=$(find docs -name '*.md' | wc -l)
echo "docs: $pages pages, every one in the nav, no broken link"
