"""Past the front end: the passes a GPU launch runs before it loads a kernel, and an sm_90
block's resources.

evaluator.device_compile takes each interpreted launch's specialization through Triton's front
end; `lower` takes what it accepted on through TTIR, TTGIR and the MLIR lowering to the LLVM
dialect (LLVM's own O3 is skipped: `_mlir_only`), and refuses what the GPU would refuse at that
point: a pass that fails, more shared memory or threads than an H100/H200 block has. On the GPU
nothing here runs: the launch compiles there anyway.
"""
from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from evaluator import device_ir


class KernelNotCompilable(RuntimeError):
    """Raised in place of the compiler's own error where it has none (an internal failure of
    the front end is refused too: the check fails closed)."""


class KernelNotAssembled(KernelNotCompilable):
    """ptxas refuses the kernel's PTX (an inline-asm text it cannot parse): on the GPU the
    compile raises PTXASError, which an autotuner takes as a config to skip (`fits`)."""


class KernelOutOfResources(KernelNotCompilable):
    """A compiled kernel needs more of an sm_90 block than it has: on the GPU the launch raises
    OutOfResources, which an autotuner takes as a config to skip (`fits`)."""



# sm_90's opt-in shared memory per block (cudaDevAttrMaxSharedMemoryPerBlockOptin on an H100 or
# H200) and threads per block: a compiled kernel over either fails its launch there
# (CompiledKernel's OutOfResources, cudaErrorInvalidValue)
SHARED_LIMIT = 232448
RESOURCES: dict[tuple, tuple[int, int]] = {}  # specialization key -> (shared bytes, warps) compiled
# specialization key -> (registers a thread, spilled words a thread, num_stages) off its sm_90 cubin:
# only for the launches that ask (`lower(assemble=True)`: a warmed kernel's occupancy query)
ASSEMBLED: dict[tuple, tuple[int, int, int]] = {}
# specialization key -> the global scratch bytes per program its compiled form asks the launch
# for (device-side tensor descriptors): the GPU's launcher takes them from triton.set_allocator's
SCRATCH: dict[tuple, int] = {}
THREAD_LIMIT = 1024


def lower(backend, module, options, target, key: tuple, name: str, assemble: bool = False) -> None:
    """Run the GPU compiler's passes past the front end, as a GPU launch would before it
    loads the kernel: TTIR, TTGIR (read for the lane records, `device_ir.record`), and
    the lowering to LLVM IR (shared-memory allocation, warp specialization, membar). A kernel
    a later pass refuses, or whose compiled form needs more shared memory or threads than an
    sm_90 block has, never runs on the GPU, so it does not run here either (red team s42
    round 1: `warp_specialize=True` loops that only the lowering refuses ran on the CPU).
    With `assemble` the cubin is always made, for its registers (`ASSEMBLED`).
    Raises KernelNotCompilable."""
    try:
        module = backend.make_ttir(module, {}, options, target.arch)
        module = backend.make_ttgir(module, {}, options, target.arch)
        device_ir.record(module, key)
        _buffers_fit(module, options, key, name)
        if _unrolled_dot_work(module) > options.num_warps * 32 * _UNROLLED_PER_THREAD:
            return  # its lowering would take minutes here (`_unrolled_dot_work`): not judged
        if assemble or options.maxnreg is not None or _inline_asm(module):
            ASSEMBLED[key] = _assemble(backend, module, options, target, name)
        else:
            with _mlir_only():
                backend.make_llir(module, {}, options, target.arch)
    except (_MlirDone, KernelOutOfResources, KernelNotAssembled) as exc:
        if not isinstance(exc, _MlirDone):
            raise
    except Exception as exc:  # noqa: BLE001  (what the GPU's compiler refuses never runs)
        raise KernelNotCompilable(
            f"Triton's GPU compiler could not lower the kernel {name} for sm_90 (the GPU launch "
            f"would fail the same way): {type(exc).__name__}: {exc}"[:2000]) from None
    # what make_llir reads into the kernel's metadata, off the module its passes left
    shared = module.get_int_attr("ttg.shared") or 0
    warps = module.get_int_attr("ttg.total-num-warps") or options.num_warps
    RESOURCES[key] = (shared, warps)
    SCRATCH[key] = module.get_int_attr("ttg.global_scratch_memory_size") or 0
    if shared > SHARED_LIMIT:
        raise KernelOutOfResources(
            f"the kernel {name} needs {shared} bytes of shared memory per program as compiled "
            f"for sm_90 (num_stages={options.num_stages}, num_warps={options.num_warps}); an H100 "
            f"or H200 block has {SHARED_LIMIT}: the GPU launch fails with OutOfResources. Use "
            "smaller blocks or fewer stages")
    if warps * 32 > THREAD_LIMIT:
        raise KernelOutOfResources(
            f"the kernel {name} runs {warps} warps per program ({warps * 32} threads); an sm_90 "
            f"block has at most {THREAD_LIMIT} threads: the GPU launch fails")


def _inline_asm(module) -> bool:
    """Whether the compiled kernel holds inline assembly (`tl.inline_asm_elementwise`), whose
    text only ptxas reads."""
    found = []

    def visit(op) -> None:
        if op.get_name() == "tt.elementwise_inline_asm":
            found.append(op)

    module.walk(visit)
    return bool(found)


# registers: an sm_90 block's file, and the allocation units the driver rounds to
_REGISTER_FILE = 65536
_REGISTER_UNIT_PER_WARP = 256


def _assemble(backend, module, options, target, name: str) -> tuple[int, int, int]:
    """The rest of a GPU compile, for the two things the MLIR passes do not decide: inline
    assembly, which ptxas alone parses (a PTX line it refuses in a branch the CPU never takes:
    the GPU launch raises PTXASError, red team s43 round 2), and `maxnreg`, under which ptxas
    may give each thread more registers than the block's file holds for its warps (130 a
    thread at num_warps=32 and maxnreg=255: the GPU's launch raises OutOfResources). LLVM's
    O3, PTX and ptxas run as on the GPU; the registers are read off the cubin (cuobjdump, as
    the driver's cuFuncGetAttribute would give them) and held to the block's register file
    at the launch's warps. Only such kernels pay for it (0.2-3 s for an elementwise one), and
    a warmed kernel's occupancy query (evaluator.warmed_kernel). Returns (registers a thread,
    spilled 4-byte words a thread: the LOCAL bytes / 4, as Triton's driver gives n_spills, num_stages)."""
    import io
    import subprocess
    import tempfile

    from triton import knobs
    from triton.runtime.errors import PTXASError

    metadata: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):  # make_cubin prints the whole PTX on failure
        llir = backend.make_llir(module, metadata, options, target.arch)
        ptx = backend.make_ptx(llir, metadata, options, target.arch)
        try:
            cubin = backend.make_cubin(ptx, metadata, options, target.arch)
        except PTXASError as exc:
            raise KernelNotAssembled(
                f"ptxas (sm_90) refuses the kernel {name}'s PTX, so the GPU compile fails with "
                f"PTXASError: {str(exc)[:1500]}") from None
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(cubin)
        file.flush()
        usage = subprocess.run([knobs.nvidia.cuobjdump.path, "--dump-resource-usage", file.name],
                               capture_output=True, text=True, timeout=60, check=True).stdout
    found = re.search(r"\bREG:(\d+)", usage)
    if found is None:
        raise KernelNotCompilable(f"the kernel {name}'s registers could not be read off its sm_90 cubin")
    registers = int(found.group(1))
    warps = metadata.get("num_warps") or options.num_warps
    per_warp = -(-registers * 32 // _REGISTER_UNIT_PER_WARP) * _REGISTER_UNIT_PER_WARP
    if per_warp * warps > _REGISTER_FILE:
        raise KernelOutOfResources(
            f"the kernel {name} needs {registers} registers a thread as compiled for sm_90 "
            f"(maxnreg={options.maxnreg}); {warps} warps of it need {per_warp * warps} and an "
            f"H100 or H200 block has {_REGISTER_FILE}: the GPU launch fails with OutOfResources. "
            "Use fewer warps or a lower maxnreg")
    local = re.search(r"\bLOCAL:(\d+)", usage)
    return registers, (int(local.group(1)) // 4 if local else 0), int(options.num_stages)


_BUFFER = re.compile(r"memdesc<((?:\d+x)+)([a-zA-Z]+)(\d+)")


def _buffers_fit(module, options, key: tuple, name: str) -> None:
    """Refuse, before the lowering, a kernel one of whose shared-memory buffers alone is over an
    sm_90 block (`ttg.local_alloc` in TTGIR: a pipeliner's multi-buffer, a dot operand's
    staging): the lowering of such a tile takes minutes on the CPU (a 256x256 fp32 dot in
    registers timed a 60 s evaluation out) and ends over the limit anyway. The largest single
    buffer is a lower bound of what the allocator lays out."""
    largest = 0

    def visit(op) -> None:
        nonlocal largest
        if op.get_name() == "ttg.local_alloc" and op.get_num_results() == 1:
            found = _BUFFER.search(str(op.get_result(0).get_type()))
            if found:
                dims = [int(d) for d in found.group(1).rstrip("x").split("x")]
                size = max(int(found.group(3)), 8) // 8
                for d in dims:
                    size *= d
                largest = max(largest, size)

    module.walk(visit)
    if largest > SHARED_LIMIT:
        RESOURCES[key] = (largest, options.num_warps)
        raise KernelOutOfResources(
            f"the kernel {name} needs at least {largest} bytes of shared memory per program as "
            f"compiled for sm_90 (num_stages={options.num_stages}, num_warps={options.num_warps}); "
            f"an H100 or H200 block has {SHARED_LIMIT}: the GPU launch fails with OutOfResources. "
            "Use smaller blocks or fewer stages")


_DOT = re.compile(r"tensor<(\d+)x(\d+)x")
_UNROLLED_PER_THREAD = 32768


def _unrolled_dot_work(module) -> int:
    """The multiply-adds of the largest `tt.dot` the TTGIR passes left to the FMA path (one not
    turned into a tensor-core op: fp32 at input_precision="ieee"), which the lowering unrolls
    per thread: a 256x256x256 fp32 dot in registers took 121 s to lower on the CPU and timed
    a 60 s evaluation out (hack rt2). Past `_UNROLLED_PER_THREAD` per thread the launch is
    not lowered here (its later passes and resources not judged, its buffers still are:
    `_buffers_fit`); the GPU compiles it for itself."""
    largest = 0

    def visit(op) -> None:
        nonlocal largest
        if op.get_name() == "tt.dot" and op.get_num_operands() >= 2:
            a = _DOT.search(str(op.get_operand(0).get_type()))
            b = _DOT.search(str(op.get_operand(1).get_type()))
            if a and b:
                largest = max(largest, int(a.group(1)) * int(a.group(2)) * int(b.group(2)))

    module.walk(visit)
    return largest


class _MlirDone(Exception):
    """make_llir's MLIR passes ran; what follows is LLVM's own optimisation."""


@contextlib.contextmanager
def _mlir_only() -> Iterator[None]:
    """Stop the NVIDIA backend's make_llir where its MLIR pipeline has run (shared-memory
    allocation, warp specialization, the conversion to the LLVM dialect: where a kernel the
    front end accepted is refused) and LLVM's O3 would start: that costs seconds to minutes
    on a large tile (101 s for a 256x256 fp32 dot) and refuses nothing the passes did not."""
    import triton.backends.nvidia.compiler as nvidia

    real = nvidia.llvm

    class _Stop:
        def __getattr__(self, attr):
            if attr == "init_targets":
                raise _MlirDone
            return getattr(real, attr)

    nvidia.llvm = _Stop()
    try:
        yield
    finally:
        nvidia.llvm = real

