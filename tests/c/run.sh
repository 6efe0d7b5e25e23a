#!/usr/bin/env bash
# Builds the C ABI (tests/c/staticlib.sh: a staticlib, panic = "abort" as
# DDNet links it) and the C and C++ test programs with AddressSanitizer and
# UBSan, then prints one JSON line per FILE, in argument order: what
# `gamefmt inspect --json FILE` prints, decoded through the C API (or an
# object with an `error` key). GAMEFMT_C_PROGRAM=cxx runs the C++ build of
# the same source instead.
#
#   tests/c/run.sh FILE...
#   tests/c/run.sh --build          (build only)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/target/c"
mkdir -p "$out"

lib="$("$root/tests/c/staticlib.sh")"
inc="$root/gamefmt-ffi/include"
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1)
libs=(-lpthread -ldl -lm)

build() { # output, compiler and flags...
  local target="$1"
  shift
  if [[ ! -x "$target" || "$target" -ot "$lib" || "$target" -ot "$src" \
        || "$target" -ot "$inc/gamefmt.h" || "$target" -ot "$root/tests/c/read_whole.h" ]]; then
    "$@" >&2
  fi
}
src="$root/tests/c/inspect.c"
build "$out/inspect-c" gcc -std=c11 -Wall -Wextra -Werror -pedantic -Wno-pedantic "${san[@]}" \
  -I"$inc" "$src" "$lib" "${libs[@]}" -o "$out/inspect-c"
build "$out/inspect-cxx" g++ -std=c++17 -x c++ -Wall -Wextra -Werror "${san[@]}" \
  -I"$inc" "$src" -x none "$lib" "${libs[@]}" -o "$out/inspect-cxx"
src="$root/tests/c/snapshot_vectors.c"
build "$out/snapshot-vectors" gcc -std=c11 -Wall -Wextra -Werror "${san[@]}" \
  -I"$inc" "$src" "$lib" "${libs[@]}" -o "$out/snapshot-vectors"

src="$root/tests/c/slp_stats.c"
build "$out/slp-stats" gcc -std=c11 -Wall -Wextra -Werror -pedantic "${san[@]}" \
  -I"$inc" "$src" "$lib" "${libs[@]}" -o "$out/slp-stats"
src="$root/tests/c/record_demo.c"
build "$out/record-demo" gcc -std=c11 -Wall -Wextra -Werror "${san[@]}" \
  -I"$inc" "$src" "$lib" "${libs[@]}" -o "$out/record-demo"
src="$root/examples/c/record_demo.c"
build "$out/record-demo-example" gcc -std=c11 -Wall -Wextra -Werror -pedantic "${san[@]}" \
  -I"$inc" "$src" "$lib" "${libs[@]}" -o "$out/record-demo-example"

[[ "${1:-}" == "--build" ]] && exit 0
case "${GAMEFMT_C_PROGRAM:-c}" in
  c) exec "$out/inspect-c" "$@" ;;
  cxx) exec "$out/inspect-cxx" "$@" ;;
  *) echo "GAMEFMT_C_PROGRAM is c or cxx" >&2; exit 2 ;;
esac
