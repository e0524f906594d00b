"""Edits on a source text that keep its lines (evaluator.block_pointers): each edited node's
text is rebuilt by its builder, which reads its sub-expressions (themselves edited) back from
the splice, and everything else is the source's own bytes."""
from __future__ import annotations

import ast
from collections.abc import Callable


class Splice:
    """The source with edits applied: each edited node's text is its builder's, given this
    splice to read its sub-expressions (themselves edited) from."""

    def __init__(self, source: str, edits: dict[int, tuple[ast.AST, Callable[[Splice], str]]]) -> None:
        self.raw = source.encode("utf-8")
        starts, pos = [], 0
        for line in self.raw.split(b"\n"):
            starts.append(pos)
            pos += len(line) + 1
        self.starts = starts
        self.edits = sorted((self._span(n) + (build,) for n, build in edits.values()), key=lambda e: (e[0], -e[1]))

    def _span(self, node: ast.AST) -> tuple[int, int]:
        return (self.starts[node.lineno - 1] + node.col_offset,  # type: ignore[attr-defined]
                self.starts[node.end_lineno - 1] + node.end_col_offset)  # type: ignore[attr-defined]

    def text(self, node: ast.AST) -> str:
        return self._between(*self._span(node))

    def module(self) -> str:
        return self._between(0, len(self.raw))

    def _between(self, start: int, end: int) -> str:
        out, pos = [], start
        for s, e, build in self.edits:
            if s >= pos and e <= end:
                out.append(self.raw[pos:s].decode("utf-8"))
                out.append(build(self))
                pos = e
        out.append(self.raw[pos:end].decode("utf-8"))
        return "".join(out)
