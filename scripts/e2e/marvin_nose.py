# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
"""nose with Marvin's plugin, Marvin run from the source tree rather than installed. An installed Marvin
registers its plugin under the entry point group "nose.plugins", whose plugins nose wraps in its
ZeroNinePlugin (the older interface: addSuccess(test, capt), which MarvinPlugin has); so here too.
Runs in the e2e's venv (requirements.txt)."""
import sys

import nose
from nose.plugins.manager import ZeroNinePlugin
from marvin.marvinPlugin import MarvinPlugin

if __name__ == "__main__":
    sys.exit(0 if nose.run(argv=sys.argv, addplugins=[ZeroNinePlugin(MarvinPlugin())]) else 1)
