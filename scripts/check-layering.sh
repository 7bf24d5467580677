#!/usr/bin/env bash
# Checks that each target (tests included) imports only what the layering table of
# docs/ARCHITECTURE.md §1 allows: the table is read from there, so the doc and the check are one.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A allowed
while IFS= read -r row; do
    target=$(sed -E 's/^\| `([A-Za-z_-]+)`.*/\1/' <<<"$row")
    imports=$(awk -F'|' '{print $(NF-1)}' <<<"$row" | grep -oE '`[A-Za-z_][A-Za-z0-9_]*`' | tr -d '`' | tr '\n' ' ' || true)
    allowed[$target]=" $imports "
done < <(grep -E '^\| `[A-Za-z_-]+` \|' docs/ARCHITECTURE.md)

status=0
for dir in Sources/*/ Tests/*/ Benchmarks/Sources/*/; do
    target=$(basename "$dir")
    if [ -z "${allowed[$target]+set}" ]; then
        echo "layering: $target has no row in the table of docs/ARCHITECTURE.md §1"
        status=1
        continue
    fi
    while IFS=: read -r file _ module; do
        if [[ "${allowed[$target]}" != *" $module "* ]]; then
            echo "layering: $file imports $module, which $target may not use (docs/ARCHITECTURE.md §1)"
            status=1
        fi
    done < <(grep -rnoE '^(@preconcurrency |@testable )*import [A-Za-z_][A-Za-z0-9_]*' "$dir" | sed -E 's/:(@preconcurrency |@testable )*import /:/')
done
[ $status = 0 ] && echo "layering: ok (${#allowed[@]} targets)"
exit $status
