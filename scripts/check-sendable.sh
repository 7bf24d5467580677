#!/usr/bin/env bash
# check-sendable.sh [DIR]: checks that what threads share in DIR (default Sources) is checked by
# the compiler (ARCHITECTURE §7, invariant 11): no NSLock (the state goes in a Mutex from
# Synchronization), and every `@unchecked Sendable` has a `// Unchecked: <why it is safe>`
# comment on the line above. scripts/check plants both in a folder to show that this fails.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-Sources}

status=0
while IFS=: read -r file line _; do
    echo "sendable: $file:$line uses NSLock; hold the state in a Mutex (Synchronization) instead"
    status=1
done < <(grep -rnw --include='*.swift' NSLock "$dir" || true)
unchecked=0
while IFS=: read -r file line _; do
    unchecked=$((unchecked + 1))
    above=""
    if [ "$line" -gt 1 ]; then above=$(sed -n "$((line - 1))p" "$file"); fi
    if ! grep -qE '^[[:space:]]*// Unchecked: ' <<<"$above"; then
        echo "sendable: $file:$line is @unchecked Sendable without a '// Unchecked: why' line above it"
        status=1
    fi
done < <(grep -rn --include='*.swift' '@unchecked Sendable' "$dir" || true)
[ $status = 0 ] && echo "sendable: ok (no NSLock; $unchecked @unchecked Sendable, each saying why)"
exit $status
