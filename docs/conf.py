"""Sphinx configuration for the kafkawire documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html``. Nothing here
needs the network: intersphinx is not used.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the repository root, for ``import kafka``
sys.path.insert(0, os.path.join(HERE, "_ext"))

from kafka import __version__  # noqa: E402

project = "kafkawire"
author = "the kafkawire authors"
copyright = "the kafkawire authors; Apache License 2.0"
release = __version__
version = ".".join(__version__.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "errortable",
    "configtable",
    "apitable",
]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path = []
html_static_path = []
html_theme = "alabaster"
html_title = "kafkawire {0}".format(release)

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
nitpicky = False
