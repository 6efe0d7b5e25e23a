#!/usr/bin/env bash
# Builds the C ABI as DDNet links it — gamefmt-ffi as a release staticlib
# with panic = "abort" — and prints the library's path. The toolchain is
# the pinned one, or the one Cargo's own variables name: CI builds it once
# with Debian's Rust 1.85, DDNet's minimum (CARGO=/usr/bin/cargo
# RUSTC=/usr/bin/rustc CARGO_TARGET_DIR=target/msrv), and links the C tests
# and examples against that build.
#
#   tests/c/staticlib.sh      -> .../release/libgamefmt_ffi.a
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
# panic = "abort" for the staticlib only (a profile override by
# environment, so the rest of the workspace keeps its profile).
CARGO_PROFILE_RELEASE_PANIC=abort "${CARGO:-cargo}" build --quiet --locked --release -p gamefmt-ffi \
  --manifest-path "$root/Cargo.toml" >&2
echo "$(cd "${CARGO_TARGET_DIR:-$root/target}" && pwd)/release/libgamefmt_ffi.a"
