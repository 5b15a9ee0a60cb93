#!/usr/bin/env bash
# Installs every build and test dependency of Tracewise from Debian 12 packages.
# Idempotent: when everything is already installed it only checks and returns in about a second.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git clang-14 clang-format
  libclang-rt-14-dev
  libsqlite3-dev zlib1g-dev libzstd-dev
  libabsl-dev libgtest-dev libgmock-dev googletest libbenchmark-dev
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  libyaml-cpp-dev libcurl4-openssl-dev libre2-dev nlohmann-json3-dev
  libcpp-httplib-dev libcli11-dev libssl-dev libjwt-dev openssl
  postgresql libpq-dev
  golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev
  chromium
)
# Node.js + npm build the web app (services/gateway/web), run the chart's schema checks
# (tools/chart) and the MCP SDK client tests. A machine that already has a node (e.g. from
# another source) keeps it; Debian's are installed only when none is on PATH.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: done"
fi

# npm packages of the web app (bundler, UI libraries, playwright-core for the browser tests) and
# of the project's checks and tests, exactly as each package-lock.json pins them; skipped when
# node_modules was installed from that very lock file (its checksum is stamped inside).
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
for dir in "$ROOT/services/gateway/web" "$ROOT/tools/chart" "$ROOT/tests/tools/tracewise/mcp/sdk_client"; do
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  have=$(cat "$dir/node_modules/.tracewise-lock-sha256" 2>/dev/null || true)
  if [ "$want" != "$have" ]; then
    echo "setup: npm ci in ${dir#$ROOT/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > "$dir/node_modules/.tracewise-lock-sha256"
  fi
done
