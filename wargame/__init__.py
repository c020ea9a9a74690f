"""wargame: classic WWII board wargames as interactive notebooks and dashboards."""

__version__ = "0.1.0"
