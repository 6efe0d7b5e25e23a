#!/usr/bin/env bash
# Builds examples/c/read_file.c against the C ABI (the panic = "abort"
# staticlib tests/c/staticlib.sh builds), with -Wall -Werror and ASan+UBSan,
# and runs it on a corpus file of each format and on a damaged copy:
# every fact it prints is checked against `gamefmt inspect --json` (the
# CLI the tests step built, or $GAMEFMT_BIN). SKIPPED without the corpus.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/target/c"
mkdir -p "$out"
lib="$("$root/tests/c/staticlib.sh")"
gcc -std=c11 -Wall -Wextra -Werror -pedantic \
  -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1 \
  -I"$root/gamefmt-ffi/include" "$root/examples/c/read_file.c" \
  "$lib" -lpthread -ldl -lm -o "$out/read_file"
# The CLI whose answers the program's are checked against.
[ -n "${GAMEFMT_BIN:-}" ] || cargo build --quiet -p gamefmt-cli --manifest-path "$root/Cargo.toml" >&2
exec python3 "$root/examples/c/check.py" "$out/read_file"
