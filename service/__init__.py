"""The service: HTTP API, pages, use cases, storage, command line, settings."""

from importlib.metadata import version

# The version is written once, in pyproject.toml; /health and the OpenAPI document's info read it here.
__version__ = version("tablelog")
