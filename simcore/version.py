"""The simcore version, in a module of its own so that any layer can record it (manifests,
Parquet metadata, ``--version``) without importing the package facade."""

__version__ = "0.1.0"
