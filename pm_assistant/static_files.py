"""Static files in production: hashed and compressed by WhiteNoise, ES module imports included."""
from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleAwareStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed, compressed storage that also rewrites ``import ... from "./x.js"``.

    The page's scripts are ES modules that import each other by relative address (static/js/main.js).
    Left as they are, a hashed module would import the unhashed file: served without the long cache
    lifetime, and a module reached under two addresses is evaluated twice (its listeners added twice).
    """

    support_js_module_import_aggregation = True
