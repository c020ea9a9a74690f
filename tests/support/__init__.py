"""Helpers of the tests that are not tests: the browser driver (``browser``), what a page sends
to its browser (``page_frames``), an in-memory room (``fake_rooms``), the dashboard as a notebook
cell builds it (``notebook_cell_app``, a Panel app file). Imported as ``tests.support.X`` with
the repository root on ``sys.path`` (pytest's ``pythonpath``; bench/ and tools/ scripts insert
it themselves)."""
