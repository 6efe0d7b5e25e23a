#!/usr/bin/env bash
# Footprint of gamefmt on a Cortex-M3 (thumbv7m-none-eabi, opt-level "s",
# LTO): for each format alone, the firmware of this folder built with only
# that format, its flash (.vector_table + .text + .rodata + .data) and static
# RAM (.data + .bss, the caller's buffers included and also shown apart),
# and the peak stack its decodes used on QEMU (painted, from run.sh's
# `stack=` figures, the largest over the files given).
#
#   tests/embedded/footprint.sh [FILE...]           print the table
#   tests/embedded/footprint.sh --write [FILE...]   ... and write it into
#                                                   README.md
#   tests/embedded/footprint.sh --check [FILE...]   fail unless README.md
#                                                   holds this table
#
# Default files: the corpus files run.sh decodes. The files must cover
# every format (a teehistorian recording, a Slippi replay, a demo, a map):
# otherwise the script says which is missing and exits 2. README.md holds
# the table between the lines `<!-- footprint:begin -->` and
# `<!-- footprint:end -->`.
#
# The baseline row is the same firmware with no format: the semihosting,
# file-list and printing code every row carries.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${GAMEFMT_CORPUS:-$root/../shared/corpus}"
elf="$here/target/thumbv7m-none-eabi/release/gamefmt-embedded"
readme="$root/README.md"
begin='<!-- footprint:begin -->'
end='<!-- footprint:end -->'

mode=print
case "${1:-}" in
  --write) mode=write; shift ;;
  --check) mode=check; shift ;;
esac

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  shopt -s nullglob
  files=("$corpus"/teeworlds/teehistorian/*.teehistorian "$corpus"/slippi/*.slp
         "$corpus"/teeworlds/demos/*.demo "$corpus"/teeworlds/maps/ddnet__data__maps__ctf1.map)
  shopt -u nullglob
  if [ ${#files[@]} -eq 0 ] && [ "$mode" = check ]; then
    echo "SKIPPED: footprint check: no corpus at $corpus and no files given"
    exit 0
  fi
fi

if [ "$mode" = check ]; then
  if ! command -v qemu-system-arm >/dev/null \
     || ! rustup target list --installed | grep -q thumbv7m-none-eabi; then
    echo "SKIPPED: footprint check: qemu-system-arm or the thumbv7m-none-eabi target is missing (run.sh installs them)"
    exit 0
  fi
fi

# Every format needs a file: its peak stack is measured on them.
format_of() {
  case "$(head -c 16 "$1" | od -An -tx1 | tr -d ' \n')" in
    699db17b8efb34ff*) echo teehistorian ;;
    7b55037261775b24*) echo slippi ;;
    545744454d4f00*) echo demo ;;
    44415441*|41544144*) echo map ;;
    *) echo unknown ;;
  esac
}
missing=""
for format in teehistorian slippi demo map; do
  found=""
  for f in "${files[@]}"; do
    if [ -r "$f" ] && [ "$(format_of "$f")" = "$format" ]; then found=1; break; fi
  done
  [ -n "$found" ] || missing="$missing $format"
done
if [ -n "$missing" ]; then
  missing="$(echo $missing | sed 's/ /, /g')"
  echo "footprint.sh: no $missing file among the files given; each format's peak stack is measured on its files (give at least one of each: a teehistorian recording, a Slippi replay, a demo, a map)" >&2
  exit 2
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

# 28124 -> "28 124", as the README writes numbers.
spaced() {
  case "$1" in
    *[!0-9]*|"") echo "$1" ;;
    *) echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\| \)/\1 \2\3/' -e 'ta' ;;
  esac
}

# The firmware keeps the source paths of a few panic locations: without
# these remaps its size would depend on where the checkout and the Cargo
# registry are (a checkout at /check/work/main is 8 bytes larger than one at
# /work/main).
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
remap="\"--remap-path-prefix=$root=gamefmt\", \"--remap-path-prefix=$registry=registry\""

table="$work/table.md"
{
echo "| firmware | flash (bytes) | static RAM (bytes) | of which buffers | peak stack (bytes) |"
echo "|---|---|---|---|---|"
for format in none teehistorian slippi demo map; do
  features=""
  [ "$format" != none ] && features="$format"
  (cd "$here" && cargo build --quiet --release --no-default-features --features "$features" \
     --config "target.thumbv7m-none-eabi.rustflags=[$remap]" 2>/dev/null)
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
    stack=$(grep -o "format=$format .*stack=[0-9]*" "$work/out.txt" | sed 's/.*stack=//' | sort -n | tail -1 || true)
    if [ -z "$stack" ]; then
      echo "footprint.sh: the $format firmware printed no stack figure (its output: $work/out.txt)" >&2
      cat "$work/out.txt" >&2
      exit 1
    fi
  fi
  name="$format"
  [ "$format" = map ] && name="map (datafile + map + inflate)"
  buffers_text="$(spaced "$buffers")"
  [ "$format" = map ] && buffers_text="$buffers_text (+ the 11 KB inflate state)"
  echo "| $name | $(spaced "$flash") | $(spaced "$ram") | $buffers_text | $(spaced "$stack") |"
done
} > "$table"
cat "$table"

# README.md with the lines between the markers replaced by the table.
with_table() {
  awk -v begin="$begin" -v end="$end" -v table="$table" '
    $0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$readme"
}
if ! grep -qxF "$begin" "$readme" || ! grep -qxF "$end" "$readme"; then
  echo "footprint.sh: README.md has no '$begin' ... '$end' lines around its table" >&2
  exit 1
fi
case "$mode" in
  write)
    with_table > "$work/README.md"
    cp "$work/README.md" "$readme"
    echo "README.md: footprint table written"
    ;;
  check)
    if ! with_table | diff -u "$readme" - >&2; then
      echo "footprint.sh: README.md's footprint table differs from this measurement; run tests/embedded/footprint.sh --write and commit README.md" >&2
      exit 1
    fi
    echo "README.md's footprint table matches the measurement"
    ;;
esac
