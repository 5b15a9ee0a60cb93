#!/usr/bin/env bash
# The Helm chart's offline checks (no helm binary, no cluster), run by ctest as chart_checks:
#   1. render helm/tracewise as Helm does (render.go: text/template + sprig) for the default
#      values and for examples/production.yaml;
#   2. validate every object against the Kubernetes schemas, every container's args against
#      its binary's --help, and ports / probes / Service names against each other
#      (validate.mjs);
#   3. prove the checks bite: a template error, a missing required value, an invalid object and
#      an unknown flag must each fail.
#
#   bash tools/chart/check.sh [--binaries DIR...]   (directories holding tracewise-* binaries)
#
# Exits 77 (ctest: skipped) when Go + sprig or the npm packages are not installed
# (tools/setup.sh installs them).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CHART="$ROOT/helm/tracewise"

BIN_DIRS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --binaries) BIN_DIRS+=("$2"); shift 2 ;;
    *) echo "usage: check.sh [--binaries DIR]..." >&2; exit 2 ;;
  esac
done

export GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS=
if ! command -v go >/dev/null || [ ! -d /usr/share/gocode/src/github.com/Masterminds/sprig ]; then
  echo "SKIPPED: Go with golang-github-masterminds-sprig-dev is not installed (bash tools/setup.sh)"
  exit 77
fi
if [ ! -d "$HERE/node_modules/kubernetes-models" ]; then
  echo "SKIPPED: tools/chart/node_modules is missing (bash tools/setup.sh runs npm ci there)"
  exit 77
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export GOCACHE="${TRACEWISE_GOCACHE:-$WORK/gocache}"
(cd "$HERE" && go build -o "$WORK/render" render.go)

# The binaries under their installed names, for --help.
mkdir -p "$WORK/bin"
for dir in "${BIN_DIRS[@]}"; do
  for b in "$dir"/tracewise-*; do
    [ -x "$b" ] && ln -sf "$(cd "$(dirname "$b")" && pwd)/$(basename "$b")" "$WORK/bin/$(basename "$b")"
  done
done

failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

# ---- the chart as shipped ----
"$WORK/render" -chart "$CHART" -out "$WORK/default.yaml" && pass "render default values" || fail "render default values"
node "$HERE/validate.mjs" "$WORK/default.yaml" --binaries "$WORK/bin" && pass "validate default values" || fail "validate default values"

"$WORK/render" -chart "$CHART" -f "$CHART/examples/production.yaml" -out "$WORK/production.yaml" \
  && pass "render examples/production.yaml" || fail "render examples/production.yaml"
node "$HERE/validate.mjs" "$WORK/production.yaml" --binaries "$WORK/bin" \
  --external Secret/tracewise-db,Secret/tracewise-llm,Secret/tracewise-auth,Secret/tracewise-tls,PersistentVolumeClaim/tracewise-traces-nfs \
  && pass "validate examples/production.yaml" || fail "validate examples/production.yaml"

# Defaults that must hold: trace-query reached through the headless Service by DNS, the
# content ConfigMap carrying every skill and strategy.
grep -q -- '- dns:///tracewise-trace-query-headless:7001' "$WORK/default.yaml" \
  && pass "clients route over the headless Service" || fail "no client routes over dns:///tracewise-trace-query-headless:7001"
skills=$(cd "$ROOT" && find skills -name '*.skill.yaml' | wc -l)
keys=$(grep -c '^  skills__.*\.skill\.yaml: |' "$WORK/default.yaml" || true)
[ "$skills" -gt 0 ] && [ "$skills" = "$keys" ] && pass "content ConfigMap has all $skills skills" \
  || fail "content ConfigMap has $keys of $skills skills"

# ---- the checks must bite ----
expect_fail() {  # WHAT PATTERN COMMAND...
  local what="$1" pattern="$2"; shift 2
  local out
  if out=$("$@" 2>&1); then fail "$what: accepted"; return; fi
  if grep -q -- "$pattern" <<<"$out"; then pass "$what: refused"; else fail "$what: refused without '$pattern': $out"; fi
}
cat > "$WORK/no-key.yaml" <<'V'
llm: {provider: openai}
V
expect_fail "llm.provider without a key" "llm.apiKey" "$WORK/render" -chart "$CHART" -f "$WORK/no-key.yaml"

# Security on: every component takes the auth config and the TLS files, and gRPC probes move
# to the plaintext health port.
n=$(grep -cE -- '- "?--auth-config"?$' "$WORK/production.yaml" || true)
[ "$n" = 5 ] && pass "production: all 5 components take --auth-config" || fail "production: $n components take --auth-config, not 5"
n=$(grep -cE -- '- "?--tls-ca"?$' "$WORK/production.yaml" || true)
[ "$n" = 5 ] && pass "production: all 5 components speak mTLS" || fail "production: $n components take --tls-ca, not 5"
grep -q 'scheme: HTTPS' "$WORK/production.yaml" && pass "production: gateway probed over HTTPS" || fail "production: gateway not probed over HTTPS"
cat > "$WORK/tls-no-secret.yaml" <<'V'
tls: {enabled: true}
V
expect_fail "tls without a Secret" "tls.existingSecret" "$WORK/render" -chart "$CHART" -f "$WORK/tls-no-secret.yaml"

cp -rL "$CHART" "$WORK/chart-syntax"
printf '{{ if .Values.x }}\n' >> "$WORK/chart-syntax/templates/verifier.yaml"
expect_fail "an unclosed action" "verifier.yaml" "$WORK/render" -chart "$WORK/chart-syntax"

cp -rL "$CHART" "$WORK/chart-invalid"
sed -i 's/podManagementPolicy: Parallel/podManagementPolicy: [Parallel]/' "$WORK/chart-invalid/templates/trace-query.yaml"
"$WORK/render" -chart "$WORK/chart-invalid" -out "$WORK/invalid.yaml"
expect_fail "an invalid object" "podManagementPolicy" node "$HERE/validate.mjs" "$WORK/invalid.yaml"

cp -rL "$CHART" "$WORK/chart-port"
sed -i 's/grpc: {port: {{ . }}}/grpc: {port: 9999}/' "$WORK/chart-port/templates/_helpers.tpl"
"$WORK/render" -chart "$WORK/chart-port" -out "$WORK/port.yaml"
expect_fail "a probe on a port the pod does not expose" "probes port 9999" node "$HERE/validate.mjs" "$WORK/port.yaml"

if [ -x "$WORK/bin/tracewise-trace-query" ]; then
  cp -rL "$CHART" "$WORK/chart-flag"
  sed -i 's/- --max-upload-mb/- --max-upload-megabytes/' "$WORK/chart-flag/templates/trace-query.yaml"
  "$WORK/render" -chart "$WORK/chart-flag" -out "$WORK/flag.yaml"
  expect_fail "a flag the binary does not take" "does not take --max-upload-megabytes" \
    node "$HERE/validate.mjs" "$WORK/flag.yaml" --binaries "$WORK/bin"
fi

if [ "$failures" -gt 0 ]; then
  echo "chart checks: $failures failed"
  exit 1
fi
echo "chart checks: all passed"
