#!/usr/bin/env bash
# Decodes files on an emulated Cortex-M3 (QEMU lm3s6965evb, 64 KiB RAM)
# and checks every line the firmware prints against the host's
# `gamefmt inspect --json` of the same file.
#
#   tests/embedded/run.sh [FILE...]    default: every corpus teehistorian,
#                                      Slippi and demo file and one map
#
# Installs qemu-system-arm (Debian) and the thumbv7m-none-eabi target when
# missing; prints SKIPPED and exits 0 only when they cannot be installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${GAMEFMT_CORPUS:-$root/../shared/corpus}"

if ! command -v qemu-system-arm >/dev/null; then
  if ! { apt-get install -y qemu-system-arm >/dev/null 2>&1 \
         || { apt-get update >/dev/null 2>&1 && apt-get install -y qemu-system-arm >/dev/null 2>&1; }; }; then
    echo "SKIPPED: qemu-system-arm is missing and could not be installed"
    exit 0
  fi
fi
if ! rustup target list --installed | grep -q thumbv7m-none-eabi \
   && ! rustup target add thumbv7m-none-eabi >/dev/null 2>&1; then
  echo "SKIPPED: target thumbv7m-none-eabi could not be installed"
  exit 0
fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=("$corpus"/teeworlds/teehistorian/*.teehistorian "$corpus"/slippi/*.slp
         "$corpus"/teeworlds/demos/*.demo
         "$corpus"/teeworlds/maps/ddnet__data__maps__ctf1.map)
  shopt -u nullglob
  existing=()
  for f in "${files[@]}"; do [ -e "$f" ] && existing+=("$f"); done
  files=("${existing[@]}")
  if [ ${#files[@]} -eq 0 ]; then
    echo "SKIPPED: no corpus at $corpus and no files given"
    exit 0
  fi
fi

(cd "$here" && cargo build --quiet --release)
# The CLI to compare with: $GAMEFMT_BIN (CI's tests step built it), else
# a release build of it.
gamefmt="${GAMEFMT_BIN:-$root/target/release/gamefmt}"
[ -n "${GAMEFMT_BIN:-}" ] || (cd "$root" && cargo build --quiet --release -p gamefmt-cli --no-default-features)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for f in "${files[@]}"; do
  realpath "$f"
done > "$work/gamefmt-embedded.list"
# The firmware opens gamefmt-embedded.list in QEMU's working directory.
(cd "$work" && timeout "${EMBEDDED_TIMEOUT:-1200}" qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb \
   -nographic -semihosting-config enable=on,target=native \
   -kernel "$here/target/thumbv7m-none-eabi/release/gamefmt-embedded") | tee "$work/firmware.out"

python3 "$here/compare.py" "$gamefmt" "$work/firmware.out" "$work/gamefmt-embedded.list"
