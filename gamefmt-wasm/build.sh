#!/usr/bin/env bash
# Builds the npm package `gamefmt` into gamefmt-wasm/dist/: the wasm
# module (cargo, profile wasm-release), its JavaScript glue and TypeScript
# declarations (wasm-bindgen-cli, built from crates.io at exactly the
# wasm-bindgen version of Cargo.lock), and the package's own JS and .d.ts.
#
#   gamefmt-wasm/build.sh                    every format
#   FEATURES="--no-default-features --features slippi" OUT=dist-slippi gamefmt-wasm/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$here/${OUT:-dist}"
target_dir=$(cd "$root" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')

version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock")
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
    echo "build.sh: installing wasm-bindgen-cli $version" >&2
    # --locked first; crates.io mirrors that lack a crate of the CLI's own
    # lock file need the resolver. --debug: a debug build of the CLI takes
    # a fraction of a release build's minutes, and it still processes our
    # module in about a second.
    cargo install --debug --locked wasm-bindgen-cli --version "=$version" ||
        cargo install --debug wasm-bindgen-cli --version "=$version"
fi
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# shellcheck disable=SC2086 # FEATURES is a list of arguments
(cd "$root" && cargo build -p gamefmt-wasm --target wasm32-unknown-unknown --profile wasm-release ${FEATURES:-})
rm -rf "$out"
mkdir -p "$out/wasm"
wasm-bindgen --target web --out-dir "$out/wasm" --out-name gamefmt \
    "$target_dir/wasm32-unknown-unknown/wasm-release/gamefmt_wasm.wasm"
cp "$here"/js/*.js "$here"/js/*.d.ts "$out/"
size=$(wc -c < "$out/wasm/gamefmt_bg.wasm")
gz=$(gzip -9 -c "$out/wasm/gamefmt_bg.wasm" | wc -c)
echo "build.sh: $out/wasm/gamefmt_bg.wasm: $size bytes, $gz gzipped"
