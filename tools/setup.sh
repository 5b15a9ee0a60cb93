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
  libcpp-httplib-dev libcli11-dev libssl-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
