#!/usr/bin/env bash
# Installs the small Vosk model of a language where tandem finds it by itself
# (called by `scripts/setup.sh --voice LANG`; see docs/voice.md).
#   scripts/voice-model.sh LANG [--sha256 HASH] [--user]
# LANG is any language with a card, assistant/data/language/LANG.toml (pl, en,
# nl, fr, de, es, ru, uk), whose [vosk] table pins the archive.
# The archive comes from the Vosk model page (https://alphacephei.com/vosk/models,
# or $TANDEM_MODELS_URL), is kept in $XDG_CACHE_HOME/tandem, and is unpacked
# only when its size and SHA-256 are the pinned ones, or its SHA-256 is the one
# given with --sha256 (another archive of that name: no size is pinned for it).
# A wrong file is refused and deleted.
# It goes to the system-wide $TANDEM_HOME/models (every user, the tandem
# service) when this script can write there or use sudo; with --user, or
# without either, to $XDG_DATA_HOME/tandem/models. tandem looks in the user's
# folder first, then in the system-wide one.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/env.sh
. "$here/env.sh"

cards="$here/../assistant/data/language"
known="$(cd "$cards" && ls -- *.toml 2>/dev/null | sed 's/\.toml$//' | tr '\n' ' ' | sed 's/ $//')"
lang="${1:-}"
[ -n "$lang" ] || { echo "voice-model: which language? one of: $known" >&2; exit 2; }
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

# The pin is the language's card's [vosk] table (assistant/data/language/LANG.toml:
# model, bytes, sha256; docs/languages.md). Alpha Cephei's model page
# publishes no hashes: the pinned values are those that independent projects
# measured from the files the page serves and pin in their own installers
# (docs/voice.md, "The models' SHA-256", says who, for each language).
case "$lang" in
  *[!a-z0-9-]*|"") echo "voice-model: $lang is not a language tag (one of: $known)" >&2; exit 2 ;;
esac
card="$cards/$lang.toml"
[ -f "$card" ] || { echo "voice-model: no Vosk model known for $lang (no $card; one of: $known)" >&2; exit 2; }
pin="$(python3 - "$card" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        v = tomllib.load(f)["vosk"]
    model, size, sha = v["model"], int(v["bytes"]), str(v["sha256"]).lower()
except Exception as e:
    print(f"voice-model: {sys.argv[1]}: no [vosk] model, bytes and sha256 ({e!r})", file=sys.stderr)
    sys.exit(1)
if not model.replace("-", "").replace(".", "").isalnum() or len(sha) != 64:
    print(f"voice-model: {sys.argv[1]}: a bad [vosk] pin", file=sys.stderr)
    sys.exit(1)
print(model, size, sha)
PY
)" || exit 2
read -r model model_bytes model_sha <<<"$pin"
# With --sha256 the archive is another one of that name: its size is not
# known, only bounded (the download stops past it).
if [ -n "$user_sha" ]; then
  want_sha="$user_sha"; want_bytes=""; max_bytes=$((2 * 1024 * 1024 * 1024))
else
  want_sha="$model_sha"; want_bytes="$model_bytes"; max_bytes="$model_bytes"
fi
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
  if ! python3 - "$base/$model.zip" "$zip.part" "$max_bytes" <<'PY'
import sys, urllib.request
url, out, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    with urllib.request.urlopen(url, timeout=60) as r, open(out, "wb") as f:
        got = 0
        while True:
            block = r.read(1 << 20)
            if not block:
                break
            got += len(block)
            if got > limit:
                print(f"voice-model: {url} is larger than {limit} bytes: not the archive", file=sys.stderr)
                sys.exit(1)
            f.write(block)
except Exception as e:
    print(f"voice-model: cannot fetch {url}: {e}", file=sys.stderr)
    sys.exit(1)
PY
  then
    rm -f "$zip.part"
    echo "voice-model: download $model.zip yourself from the Vosk model page and put it in $cache, then run this again" >&2
    exit 1
  fi
  mv "$zip.part" "$zip"
fi
size="$(stat -c %s "$zip")"
if [ -n "$want_bytes" ] && [ "$size" != "$want_bytes" ]; then
  rm -f "$zip"
  echo "voice-model: $model.zip has $size bytes, not $want_bytes: refused and deleted" >&2
  exit 1
fi
got="$(sha256sum "$zip" | cut -d' ' -f1)"
if [ "$got" != "$want_sha" ]; then
  rm -f "$zip"
  echo "voice-model: $model.zip has SHA-256 $got, not $want_sha: refused and deleted" >&2
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
