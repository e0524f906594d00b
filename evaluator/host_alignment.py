"""CPU children's memory aligned as CUDA's caching allocator aligns a GPU's: 512 bytes.

Under the CPU interpreter a tensor's memory comes from PyTorch's CPU allocator, 64-byte
aligned; on the GPU from CUDA's caching allocator, whose blocks start on 512 bytes (recorded
on an H200, evaluator/h200.json's session, `data_ptr() % 512 == 0` for every fresh tensor). A
forward that tests `x.data_ptr() % 512` (or a kernel its pointer's value) took one path on
the CPU and another on the GPU (red team s46, 1 in 8 on the CPU). A CPU sandbox runs with a
small library preloaded that raises every `posix_memalign` (PyTorch's CPU allocation) to at
least 512 bytes, and to 2 MiB from 1 MiB up, as CUDA's large segments are.

The library is built once per Python installation with the host's C compiler, beside the
interpreter's prefix (the sandbox sees that tree read-only); without a compiler the CPU
sandbox runs without it, the log says so once and every verdict's sandbox details say
`allocator_alignment: 64`.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

log = logging.getLogger(__name__)

ALIGNMENT = 512
_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
typedef int (*memalign_fn)(void **, size_t, size_t);
int posix_memalign(void **out, size_t alignment, size_t size) {
    static memalign_fn real = 0;
    if (!real) real = (memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
    size_t want = size >= (1u << 20) ? (2u << 20) : %d;
    return real(out, alignment < want ? want : alignment, size);
}
""" % ALIGNMENT

_lock = threading.Lock()
_built: dict[str, str | None] = {}


def library() -> str | None:
    """Path of the preload library (built on first use), or None where it cannot be built."""
    digest = hashlib.sha256(_SOURCE.encode()).hexdigest()[:12]
    with _lock:
        if digest not in _built:
            _built[digest] = _build(Path(sys.prefix) / "lib" / "krl" / f"align{ALIGNMENT}-{digest}.so")
        return _built[digest]


def _build(target: Path) -> str | None:
    if target.exists():
        return str(target)
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        log.warning("sandbox layer unavailable: no C compiler to build the %d-byte allocator "
                    "alignment (CPU children allocate 64-byte aligned, unlike a GPU)", ALIGNMENT)
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "align.c"
            src.write_text(_SOURCE)
            built = Path(tmp) / target.name
            subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(src), "-ldl"],
                           check=True, capture_output=True, timeout=120)
            os.replace(shutil.copy(built, target.with_suffix(".tmp")), target)  # atomic for racers
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("sandbox layer unavailable: building the allocator alignment failed: %s", exc)
        return None
    return str(target)
