#!/usr/bin/env bash
# Checks that each target imports only what the layering table of docs/ARCHITECTURE.md allows
# (ARCHITECTURE §1: arrows point down only).
set -euo pipefail
cd "$(dirname "$0")/.."

allowed() {
    case "$1" in
        NotesCore) echo "Foundation Crypto" ;;
        NotesStore) echo "Foundation NotesCore GRDB Logging" ;;
        CloudFolder) echo "Foundation Glibc Crypto NotesCore" ;;
        NotesSync) echo "Foundation Glibc NotesCore CloudFolder Logging" ;;
        TerminalNcurses) echo "Glibc CNCurses TerminalUI" ;;
        NotesRuntime) echo "Foundation Glibc NotesCore NotesStore NotesApp TerminalUI TerminalNcurses NotesSync CloudFolder Logging" ;;
        cloudnotes) echo "Foundation NotesCore NotesStore TerminalUI ArgumentParser Logging Glibc NotesRuntime NotesSync CloudFolder NotesApp" ;;
        TerminalUI) echo "" ;;
        NotesApp) echo "Foundation NotesCore TerminalUI" ;;
        NotesTestSupport) echo "" ;;
        *) echo "" ;;
    esac
}

status=0
for dir in Sources/*/; do
    target=$(basename "$dir")
    ok=" $(allowed "$target") "
    while IFS=: read -r file _ module; do
        module=${module%% *}
        if [[ "$ok" != *" $module "* ]]; then
            echo "layering: $file imports $module, which $target may not use"
            status=1
        fi
    done < <(grep -rnoE '^(@preconcurrency )?import [A-Za-z_]+' "$dir" | sed -E 's/(@preconcurrency )?import //')
done
[ $status = 0 ] && echo "layering: ok"
exit $status
