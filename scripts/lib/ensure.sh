# Shared set-up steps for scripts/start.sh and scripts/test.sh: install only what is missing.
# A fresh machine has Node and npm; Bun comes from the npm registry into .tools/ (no root needed).

BUN_VERSION="1.4.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

ensure_bun() {
  if command -v bun >/dev/null 2>&1; then return; fi
  if [ -x "$ROOT/.tools/node_modules/.bin/bun" ]; then
    export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
    return
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "error: neither bun nor npm is installed; install Node.js (with npm) first" >&2
    exit 1
  fi
  echo "==> Installing Bun $BUN_VERSION from the npm registry into .tools/"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$ROOT/.tools" "bun@$BUN_VERSION" >/dev/null
  export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
  bun --version >/dev/null
}

ensure_packages() {
  local stamp="$ROOT/node_modules/.vvx-installed"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$ROOT/bun.lock" ] && [ "$stamp" -nt "$ROOT/package.json" ]; then return; fi
  echo "==> Installing packages (bun install)"
  (cd "$ROOT" && bun install --frozen-lockfile)
  touch "$stamp"
}

# Prints what runs a command as root here ("" as root, "sudo" otherwise); exits with `$1` when neither can.
root_prefix() {
  if [ "$(id -u)" = "0" ]; then return; fi
  if command -v sudo >/dev/null 2>&1; then echo sudo; return; fi
  echo "error: $1" >&2
  exit 1
}

# The browser tests run in Debian's chromium-headless-shell, the build Playwright itself runs headless tests in: no
# browser UI to composite, so the same suite took 12-20% less CPU than in the full chromium (slots and embed e2e
# files, alternated runs). The full chromium is the fallback where the shell cannot be installed.
ensure_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then return; fi
  if [ ! -x /usr/bin/chromium-headless-shell ] && { [ "$(id -u)" = "0" ] || [ ! -x /usr/bin/chromium ]; }; then
    echo "==> Installing Chromium's headless shell from Debian packages (for the browser tests)"
    local sudo
    sudo="$(root_prefix "Chromium is missing and installing it needs root (apt-get install chromium-headless-shell)")"
    # Where a full chromium is already installed, a failed install (no package lists, no network) keeps it.
    if ! { $sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium-headless-shell >/dev/null; }; then
      echo "warning: chromium-headless-shell could not be installed; the browser tests use the full Chromium if there is one" >&2
    fi
  fi
  for candidate in /usr/bin/chromium-headless-shell /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$candidate" ]; then export CHROMIUM_PATH="$candidate"; return; fi
  done
  echo "Chromium could not be installed (apt-get install chromium-headless-shell)" >&2
  exit 1
}

# Installs Debian packages whose services must not start (the tests run their own copies): policy-rc.d
# refuses every service start for the length of the install (when none is set already), and where systemd
# started one anyway (policy-rc.d does not bind systemctl), it is stopped and disabled. Args: the services, "--", the packages.
apt_install_quiet() {
  local services=() sudo
  while [ "$1" != "--" ]; do services+=("$1"); shift; done
  shift
  sudo="$(root_prefix "installing $* needs root (apt-get install $*)")"
  local policy=/usr/sbin/policy-rc.d made=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    made=1
  fi
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  if [ -n "$made" ]; then $sudo rm -f "$policy"; fi
  for service in "${services[@]}"; do
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$service" 2>/dev/null; then
      $sudo systemctl disable --now "$service" >/dev/null 2>&1 || true
    fi
  done
}

ensure_promtool() {
  if command -v promtool >/dev/null 2>&1; then return; fi
  echo "==> Installing promtool from Debian's prometheus package (the metrics test checks a real scrape with it)"
  # Only the promtool binary is wanted, not the Prometheus service.
  apt_install_quiet prometheus -- prometheus
  command -v promtool >/dev/null 2>&1 || { echo "error: the prometheus package installed no promtool" >&2; exit 1; }
}

# PostgreSQL and Redis for the cluster tests (each run starts its own in a temporary folder: scripts/lib/services.ts).
ensure_cluster_services() {
  local wanted=() services=()
  if ! command -v postgres >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then wanted+=(postgresql); services+=(postgresql); fi
  if ! command -v redis-server >/dev/null 2>&1; then wanted+=(redis-server); services+=(redis-server); fi
  [ ${#wanted[@]} -eq 0 ] && return
  echo "==> Installing ${wanted[*]} from Debian packages (for the cluster tests)"
  apt_install_quiet "${services[@]}" -- "${wanted[@]}"
}

