#!/usr/bin/env bash
# Files the project has never seen, in the corpus's layout, and the checks
# of issue 34 run on them (by hand: slow, not in CI).
#
#   benches/unseen.sh OUT SOURCE...
#
# SOURCE is a folder (searched recursively) or a bare git mirror (its
# HEAD, e.g. one the `fetch` tool brought to /work/.mirror/OWNER+NAME/repo).
# Every .slp, .map, .demo and .teehistorian file whose sha256 is not one of
# the corpus's ($GAMEFMT_CORPUS or ../shared/corpus) and not already taken
# is copied to OUT/corpus/{slippi,teeworlds/maps,teeworlds/demos,
# teeworlds/teehistorian}/ (OUT/corpus/SOURCES.tsv says where each came
# from), with a flat folder of links OUT/flat for GAMEFMT_NEVER_SEEN. Then,
# with the CLI ($GAMEFMT_BIN, else target/release/gamefmt), `validate` and
# `inspect` walk the folder; the Python checks are printed to run next.
set -euo pipefail
out="${1:?usage: benches/unseen.sh OUT SOURCE...}"; shift
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${GAMEFMT_CORPUS:-$root/../shared/corpus}"
gamefmt="${GAMEFMT_BIN:-$root/target/release/gamefmt}"
rm -rf "$out/corpus" "$out/flat"
mkdir -p "$out"/corpus/{slippi,teeworlds/maps,teeworlds/demos,teeworlds/teehistorian} "$out/flat"
declare -A seen
if [ -d "$corpus" ]; then
  while read -r h _; do seen[$h]=1; done < <(find "$corpus" -type f -exec sha256sum {} +)
fi
take() { # FILE NAME WHERE
  local h sub
  h=$(sha256sum "$1" | cut -d' ' -f1)
  [ -z "${seen[$h]:-}" ] || return 0
  seen[$h]=1
  case "${2##*.}" in
    slp) sub=slippi ;; map) sub=teeworlds/maps ;; demo) sub=teeworlds/demos ;;
    teehistorian) sub=teeworlds/teehistorian ;; *) return 0 ;;
  esac
  cp "$1" "$out/corpus/$sub/$2"
  ln -s "$out/corpus/$sub/$2" "$out/flat/$2"
  printf '%s\t%s\t%s\n' "$sub/$2" "$3" "$h" >> "$out/corpus/SOURCES.tsv"
}
pattern='\.(slp|map|demo|teehistorian)$'
for src in "$@"; do
  tag="$(basename "$(dirname "$src")")"
  if git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    while IFS= read -r p; do
      # A snapshot may list its largest files without holding them.
      git --git-dir="$src" show "HEAD:$p" > "$out/blob" 2>/dev/null || continue
      take "$out/blob" "${tag#*+}__${p//\//__}" "$src:$p"
    done < <(git --git-dir="$src" ls-tree -r HEAD --name-only | grep -iE "$pattern")
  else
    tag="$(basename "$src")"
    while IFS= read -r f; do
      rel="${f#"$src"/}"
      take "$f" "${tag}__${rel//\//__}" "$f"
    done < <(find "$src" -type f | grep -iE "$pattern" | sort)
  fi
done
rm -f "$out/blob"
echo "never seen, by folder:"
(cd "$out/corpus" && find . -type f ! -name SOURCES.tsv | sed 's#^\./##; s#/[^/]*$##' | sort | uniq -c)
if [ -x "$gamefmt" ]; then
  for cmd in validate inspect; do
    "$gamefmt" "$cmd" "$out/corpus" > /dev/null 2> "$out/$cmd.err" && rc=0 || rc=$?
    echo "gamefmt $cmd (exit $rc): $(tail -n 1 "$out/$cmd.err")"
  done
fi
cat <<EOF
Python checks (a venv with the gamefmt wheel, pytest, pyarrow, peppi-py,
teehistorian-py, twmap):
  GAMEFMT_CORPUS=$out/corpus GAMEFMT_NEVER_SEEN=$out/flat GAMEFMT_SAMPLES=20 GAMEFMT_BIN=$gamefmt \\
    pytest -q -rs python/tests/test_robustness.py python/tests/test_corpus.py \\
    python/tests/test_corpus_assumptions.py python/tests/test_vocabulary.py python/tests/test_peers.py
EOF
