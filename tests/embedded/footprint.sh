#!/usr/bin/env bash
# Footprint of gamefmt on a Cortex-M3 (thumbv7m-none-eabi, opt-level "s",
# LTO): for each format alone, the firmware of this folder built with only
# that format, its flash (.vector_table + .text + .rodata + .data) and static
# RAM (.data + .bss, the caller's buffers included and also shown apart),
# and the peak stack its decodes used on QEMU (painted, from run.sh's
# `stack=` figures, the largest over the files given).
#
#   tests/embedded/footprint.sh [FILE...]   default: the corpus files
#
# The baseline row is the same firmware with no format: the semihosting,
# file-list and printing code every row carries.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${GAMEFMT_CORPUS:-$root/../shared/corpus}"
elf="$here/target/thumbv7m-none-eabi/release/gamefmt-embedded"

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=("$corpus"/teeworlds/teehistorian/*.teehistorian "$corpus"/slippi/*.slp
         "$corpus"/teeworlds/demos/*.demo "$corpus"/teeworlds/maps/ddnet__data__maps__ctf1.map)
  shopt -u nullglob
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for f in "${files[@]}"; do realpath "$f"; done > "$work/gamefmt-embedded.list"

# Sizes of the ELF's allocated sections: flash and RAM, in bytes.
sizes() {
  size -A "$elf" | awk '
    $1 == ".vector_table" || $1 == ".text" || $1 == ".rodata" { flash += $2 }
    $1 == ".data" { flash += $2; ram += $2 }
    $1 == ".bss" || $1 == ".uninit" { ram += $2 }
    END { print flash, ram }'
}

echo "| firmware | flash (text + rodata + data) | static RAM (data + bss) | of which buffers | peak stack |"
echo "|---|---|---|---|---|"
for format in none teehistorian slippi demo map; do
  features=""
  [ "$format" != none ] && features="$format"
  (cd "$here" && cargo build --quiet --release --no-default-features --features "$features" 2>/dev/null)
  read -r flash ram < <(sizes)
  case "$format" in
    teehistorian|slippi) buffers=4096 ;;
    demo) buffers=12288 ;;
    map) buffers=$((8192 + 16384)) ;;
    *) buffers=0 ;;
  esac
  stack="-"
  if [ "$format" != none ]; then
    (cd "$work" && timeout 1200 qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic \
       -semihosting-config enable=on,target=native -kernel "$elf" > "$work/out.txt" 2>/dev/null) || true
    stack=$(grep -o "format=$format .*stack=[0-9]*" "$work/out.txt" | sed 's/.*stack=//' | sort -n | tail -1)
    stack="${stack:--}"
  fi
  echo "| $format | $flash | $ram | $buffers | $stack |"
done
