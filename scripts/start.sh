#!/usr/bin/env bash
# Starts VVX on this machine: installs what is missing (Bun, packages), then runs the
# server in sandbox mode (embedded ledger and Xaman, SQLite under ./data).
# Configuration comes from the environment: see README.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure.sh"
cd "$ROOT"
ensure_bun
ensure_packages
exec bun run start
