#!/usr/bin/env bash
# Installs the small Vosk model of a language where tandem finds it by itself
# (called by `scripts/setup.sh --voice LANG`; see docs/voice.md).
#   scripts/voice-model.sh pl|en [--sha256 HASH] [--user]
# The archive comes from the Vosk model page (https://alphacephei.com/vosk/models,
# or $TANDEM_MODELS_URL), is kept in $XDG_CACHE_HOME/tandem, and is unpacked
# only when its SHA-256 is the pinned one or the one given with --sha256.
# It goes to the system-wide $TANDEM_HOME/models (every user, the tandem
# service) when this script can write there or use sudo; with --user, or
# without either, to $XDG_DATA_HOME/tandem/models. tandem looks in the user's
# folder first, then in the system-wide one.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/env.sh
. "$here/env.sh"

lang="${1:-}"
[ -n "$lang" ] || { echo "voice-model: which language? pl or en" >&2; exit 2; }
shift
user_sha=""
user_only=0
while [ "$#" -gt 0 ]; do
  case "$1" in
    --sha256)
      [ "$#" -ge 2 ] || { echo "voice-model: --sha256 needs the archive's hash" >&2; exit 2; }
      user_sha="$(printf '%s' "$2" | tr 'A-F' 'a-f')"; shift ;;
    --user) user_only=1 ;;
    *) echo "voice-model: unknown option $1 (--sha256 HASH, --user)" >&2; exit 2 ;;
  esac
  shift
done

# The SHA-256 of vosk-model-small-en-us-0.15.zip (41 205 931 bytes) is not on
# the model page; it is the value packagers pinned independently (Automotive
# Grade Linux's meta-offline-voice-agent recipe, the vosk-api PKGBUILD of
# Arch's AUR, Homebrew formulae). No such value was found for the Polish
# archive: it is unpacked only with --sha256 HASH.
case "$lang" in
  pl) model=vosk-model-small-pl-0.22; model_sha="" ;;
  en) model=vosk-model-small-en-us-0.15
      model_sha=30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498 ;;
  *) echo "voice-model: no Vosk model known for $lang (pl or en)" >&2; exit 2 ;;
esac
base="${TANDEM_MODELS_URL:-https://alphacephei.com/vosk/models}"

sys_models="$TANDEM_HOME/models"
user_models="${XDG_DATA_HOME:-$HOME/.local/share}/tandem/models"
sudo_=""
if [ "$user_only" = 1 ]; then
  dest="$user_models"
elif [ "$(id -u)" = 0 ] || { mkdir -p "$sys_models" 2>/dev/null && [ -w "$sys_models" ]; }; then
  dest="$sys_models"
elif command -v sudo >/dev/null; then
  dest="$sys_models"; sudo_="sudo"
else
  dest="$user_models"
fi

if [ -d "$dest/$model/am" ]; then
  echo "voice-model: $model is already in $dest"
  exit 0
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tandem"
mkdir -p "$cache"
zip="$cache/$model.zip"
if [ ! -s "$zip" ]; then
  echo "voice-model: fetching $base/$model.zip"
  if ! python3 - "$base/$model.zip" "$zip.part" <<'PY'
import shutil, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=60) as r, open(sys.argv[2], "wb") as f:
        shutil.copyfileobj(r, f)
except Exception as e:
    print(f"voice-model: cannot fetch {sys.argv[1]}: {e}", file=sys.stderr)
    sys.exit(1)
PY
  then
    rm -f "$zip.part"
    echo "voice-model: download $model.zip yourself from the Vosk model page and put it in $cache, then run this again" >&2
    exit 1
  fi
  mv "$zip.part" "$zip"
fi
got="$(sha256sum "$zip" | cut -d' ' -f1)"
want="${user_sha:-$model_sha}"
if [ -z "$want" ]; then
  echo "voice-model: $model.zip has no published SHA-256 to check it against, so it is" >&2
  echo "voice-model: not unpacked. The download's SHA-256 is $got; compare it with a" >&2
  echo "voice-model: source you trust, then run: scripts/setup.sh --voice $lang --sha256 <that hash>" >&2
  echo "voice-model: (the download is kept in $zip)" >&2
  exit 1
fi
if [ "$got" != "$want" ]; then
  rm -f "$zip"
  echo "voice-model: $model.zip has SHA-256 $got, not $want: refused and deleted" >&2
  exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unzip -q "$zip" -d "$tmp"
if [ ! -d "$tmp/$model/am" ] || [ ! -d "$tmp/$model/conf" ]; then
  echo "voice-model: $model.zip does not hold $model/am and $model/conf: not a Vosk model" >&2
  exit 1
fi
$sudo_ mkdir -p "$dest"
$sudo_ rm -rf "$dest/$model.new"
$sudo_ cp -r "$tmp/$model" "$dest/$model.new"
$sudo_ mv "$dest/$model.new" "$dest/$model"
echo "voice-model: $model is in $dest; tandem play --lang $lang listens with it"
