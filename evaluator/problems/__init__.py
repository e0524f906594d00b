"""Problem data: the built-in problem set (`builtin/`) and readers for problem tables.

The loader and the `Problem` type live in `common.problemset`; this package holds
the data files it reads (see README.md here) and the table readers it uses.
"""
