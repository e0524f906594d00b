"""Bounds on the strings and numbers a wire message may carry (common/messages.py,
common/verdict.py): short strings (ids, names, codes) and large ones (sources, feedback)
get separate limits, so a peer's message is refused at decoding, not after it filled memory."""

from __future__ import annotations

from typing import Annotated

import msgspec

from common.ids import MAX_ID_CHARS

Id = Annotated[str, msgspec.Meta(max_length=256)]
# Group, lease, prompt and actor ids: the limit the hub's store holds too (common/ids.py).
RecordId = Annotated[str, msgspec.Meta(max_length=MAX_ID_CHARS)]
Name = Annotated[str, msgspec.Meta(max_length=1024)]
Text = Annotated[str, msgspec.Meta(max_length=1 << 20)]
Count = Annotated[int, msgspec.Meta(ge=0)]
Seconds = Annotated[float, msgspec.Meta(ge=0)]
