"""The values CUDA's kernels compute for the torch ops evaluator.cuda_fidelity hands over, on a
CPU candidate child's device tensors: random fills from CUDA's generator's stand-in (Philox at
CUDA's seed and offset, curand's transforms, the grid-stride kernel's layout); the scans,
variance and orders are evaluator.cuda_orders'. Each `_h_*` takes (func, args, kwargs) as a dispatch mode does and answers the op, or
NotImplemented for the CPU kernel's own answer (cuda_fidelity's module doc says why)."""
from __future__ import annotations

import math
import secrets
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy
import torch

from evaluator import device_answers

aten = torch.ops.aten

# -- CUDA's generator ------------------------------------------------------------------------

# torch's own numpy(), which watched_reads refuses to a forward's code: the draws are computed
# at the bottom of the dispatch stack, no watch below them
_NUMPY = torch.Tensor.numpy
_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_PHILOX_W = (0x9E3779B9, 0xBB67AE85)  # curand_philox4x32_x.h: the key's bump per round
_PHILOX_M = (0xD2511F53, 0xCD9E8D57)  # the round's multipliers
_DEFAULT_SEED = 67280421310721  # c10::detail::default_rng_seed_val, a new CUDA generator's seed


def _uint64(seed: Any) -> int:
    """A seed as CUDA's generator takes it (THPGenerator_manualSeed): an int in
    [-2^63, 2^64), a negative one as its two's complement; refused outside, with torch's
    own error (a CPU generator takes seeds alike)."""
    return torch.Generator().manual_seed(int(seed)).initial_seed() & _M64


class CudaGenerator:
    """A CUDA generator's state as CUDAGeneratorImpl keeps it, on the CPU: a seed and the
    Philox offset per thread. Each kernel's draw takes the offset and advances it by its
    increment rounded up to a multiple of 4 (philox_cuda_state); manual_seed sets the seed
    and the offset 0. get_state/set_state are CUDA's 16 bytes: the seed, then the offset."""

    def __init__(self, seed: int = _DEFAULT_SEED) -> None:
        self._seed, self._offset = seed, 0

    def manual_seed(self, seed: Any) -> CudaGenerator:
        self._seed, self._offset = _uint64(seed), 0
        return self

    def seed(self) -> int:
        """A seed from the OS, as getNonDeterministicRandom(is_cuda=true) draws it (53 bits)."""
        value = secrets.randbits(53)
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        return self._seed

    def get_offset(self) -> int:
        return self._offset

    def set_offset(self, offset: int) -> None:
        if int(offset) % 4:
            raise RuntimeError("offset must be a multiple of 4")
        self._offset = int(offset) & _M64

    def get_state(self) -> torch.Tensor:
        return torch.tensor(list(struct.pack("<QQ", self._seed, self._offset)), dtype=torch.uint8)

    def set_state(self, state: torch.Tensor) -> None:
        if not isinstance(state, torch.Tensor) or state.dtype != torch.uint8 or state.device.type != "cpu":
            raise TypeError("expected a torch.ByteTensor, but got "
                            f"{type(state).__name__ if not isinstance(state, torch.Tensor) else state.type()}")
        raw = bytes(state.contiguous().tolist())
        if len(raw) not in (8, 16):
            raise RuntimeError("RNG state is wrong size")
        seed = struct.unpack("<Q", raw[:8])[0]
        offset = struct.unpack("<Q", raw[8:])[0] if len(raw) == 16 else 0
        self.manual_seed(seed)
        self.set_offset(offset)

    def philox_state(self, increment: int) -> tuple[int, int]:
        """(seed, offset) for one kernel's draw, the offset advanced past it."""
        offset = self._offset
        self._offset = (offset + (increment + 3) // 4 * 4) & _M64
        return self._seed, offset


# CUDA's default generator, which getDefaultCUDAGenerator seeds from the OS when it is made;
# torch.manual_seed and torch.cuda's seeds seed it (cuda_generator_on_the_host)
DEFAULT = CudaGenerator()
DEFAULT.seed()
_INSTALLED = [False]


def cuda_generator_on_the_host() -> None:
    """In a CPU child: torch.cuda's RNG functions act on DEFAULT, as on the GPU they act on
    CUDA's default generator (a CPU build only queues them for a CUDA that never comes), so
    torch.manual_seed, torch.seed, torch.cuda.manual_seed(_all), seed(_all), initial_seed,
    get/set_rng_state(_all) and torch.random.fork_rng seed, read and restore the generator
    the device draws (cuda_values' handlers) come from, and never the CPU's."""
    if _INSTALLED[0]:
        return
    _INSTALLED[0] = True
    import torch.cuda.random as cuda_random

    def manual_seed(seed: Any) -> None:
        DEFAULT.manual_seed(int(seed))

    def seed() -> None:
        DEFAULT.seed()

    def initial_seed() -> int:
        return DEFAULT.initial_seed()

    def get_rng_state(device: Any = "cuda") -> torch.Tensor:
        return DEFAULT.get_state()

    def set_rng_state(new_state: torch.Tensor, device: Any = "cuda") -> None:
        DEFAULT.set_state(new_state)

    def get_rng_state_all() -> list[torch.Tensor]:
        return [DEFAULT.get_state()]

    def set_rng_state_all(new_states: Any) -> None:
        for state in new_states:
            DEFAULT.set_state(state)

    stand_ins = {"manual_seed": manual_seed, "manual_seed_all": manual_seed, "seed": seed, "seed_all": seed,
                 "initial_seed": initial_seed, "get_rng_state": get_rng_state, "set_rng_state": set_rng_state,
                 "get_rng_state_all": get_rng_state_all, "set_rng_state_all": set_rng_state_all}
    for name, fn in stand_ins.items():
        real = getattr(cuda_random, name)
        fn.__name__, fn.__qualname__, fn.__doc__ = real.__name__, real.__qualname__, real.__doc__
        fn.__module__ = real.__module__
        setattr(cuda_random, name, fn)
        setattr(torch.cuda, name, fn)


def generator_for(generator: Any) -> CudaGenerator:
    """The generator a device draw takes: the call's own stand-in, else CUDA's default; a CPU
    generator is refused as CUDA's check_generator refuses it."""
    if generator is None:
        return DEFAULT
    if isinstance(generator, CudaGenerator):
        return generator
    kind = generator.device.type if isinstance(generator, torch.Generator) else type(generator).__name__
    raise RuntimeError(f"Expected a 'cuda' device type for generator but found '{kind}'")


def _philox(seed: int, counter: torch.Tensor, subsequence: torch.Tensor) -> torch.Tensor:
    """curand_Philox4x32_10 of the counters (counter in the low 64 bits, subsequence in the
    high: curand_init's skipahead and skipahead_sequence from 0) under key `seed`: the four
    u32 of each, as int64, in a last dimension of 4 (broadcast over the two's shapes). In
    numpy's uint64, in place, a cache-sized chunk at a time (25 times torch's int64 ops)."""
    counter, subsequence = torch.broadcast_tensors(counter, subsequence)
    shape = counter.shape
    cnt = _NUMPY(counter.reshape(-1).contiguous()).view(numpy.uint64)
    sub = _NUMPY(subsequence.reshape(-1).contiguous()).view(numpy.uint64)
    out = numpy.empty((cnt.size, 4), dtype=numpy.uint64)
    m32, s32 = numpy.uint64(_M32), numpy.uint64(32)
    mul = numpy.uint64(_PHILOX_M[0]), numpy.uint64(_PHILOX_M[1])
    for at in range(0, cnt.size, _CHUNK):
        c = cnt[at:at + _CHUNK]
        t = sub[at:at + _CHUNK]
        c0, c1, c2, c3 = c & m32, c >> s32, t & m32, t >> s32
        p0, p1 = numpy.empty_like(c0), numpy.empty_like(c0)
        k0, k1 = seed & _M32, (seed >> 32) & _M32
        for i in range(10):
            if i:
                k0, k1 = (k0 + _PHILOX_W[0]) & _M32, (k1 + _PHILOX_W[1]) & _M32
            numpy.multiply(c0, mul[0], out=p0)  # < 2^64: exact
            numpy.multiply(c2, mul[1], out=p1)
            numpy.right_shift(p1, s32, out=c0)
            numpy.bitwise_xor(c0, c1, out=c0)
            numpy.bitwise_xor(c0, numpy.uint64(k0), out=c0)
            numpy.right_shift(p0, s32, out=c2)
            numpy.bitwise_xor(c2, c3, out=c2)
            numpy.bitwise_xor(c2, numpy.uint64(k1), out=c2)
            numpy.bitwise_and(p1, m32, out=c1)
            numpy.bitwise_and(p0, m32, out=c3)
        block = out[at:at + _CHUNK]
        block[:, 0], block[:, 1], block[:, 2], block[:, 3] = c0, c1, c2, c3
    return torch.from_numpy(out.view(numpy.int64)).view(*shape, 4)


# -- RNG grain -------------------------------------------------------------------------------

_BLOCK = 256  # DistributionTemplates.h: block_size_bound
_POW32 = 2.0 ** -32
_CHUNK = 1 << 16  # Philox draws computed at once (in cache)


def _grid_stride(numel: int) -> int:
    """blockDim.x * gridDim.x of PyTorch's grid-stride distribution kernels on the H200
    (calc_execution_policy)."""
    props = device_answers.H200
    per_sm = int(props.get("max_threads_per_multi_processor", 2048)) // _BLOCK
    blocks = min(int(props.get("multi_processor_count", 132)) * per_sm, max(1, -(-numel // _BLOCK)))
    return _BLOCK * blocks


def _engine(n: int, unroll: int, generator: Any) -> torch.Tensor:
    """The curand4 draws of distribution_elementwise_grid_stride_kernel for `n` elements at
    `unroll` elements per draw: [rounds, threads, 4] u32 (as int64), thread t's draw of
    round r from Philox at counter offset/4 + r, subsequence t. The generator's offset
    advances by calc_execution_policy's counter_offset (4 per round)."""
    stride = _grid_stride(n)
    rounds = (n - 1) // (stride * unroll) + 1
    seed, offset = generator_for(generator).philox_state(rounds * 4)
    threads = stride if rounds > 1 else min(stride, n)  # threads whose draws land (one round: the first n)
    counter = (offset // 4 + torch.arange(rounds, dtype=torch.int64)).view(rounds, 1)
    draws = _philox(seed, counter, torch.arange(threads, dtype=torch.int64).view(1, -1))
    if threads < stride:  # threads past n draw too, and write nothing
        draws = torch.cat([draws, torch.zeros(rounds, stride - threads, 4, dtype=torch.int64)], dim=1)
    return draws


def _laid_out(lanes: torch.Tensor, n: int) -> torch.Tensor:
    """[rounds, threads, unroll] values to the elements they land on: element
    r * unroll * stride + ii * stride + t takes thread t's lane ii of round r."""
    return lanes.permute(0, 2, 1).reshape(-1)[:n]


def _curand_uniform(u: torch.Tensor) -> torch.Tensor:
    """curand_uniform's float in (0, 1]: float(u) * 2^-32 + 2^-33, in float32."""
    return u.to(torch.float32) * _POW32 + (_POW32 / 2)


def _hq_double(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """_curand_uniform_double_hq: the 53 bits x ^ (y << 21), times 2^-53, plus 2^-54."""
    return (x ^ (y << 21)).to(torch.float64) * 2.0 ** -53 + 2.0 ** -54


def _uniforms(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """The uniform draws uniform_and_transform hands its transform, element by element:
    curand_uniform4 (float32, four elements a draw) for every dtype but double,
    curand_uniform2_double (two) for double."""
    if dtype == torch.float64:
        x = _engine(n, 2, generator)
        return _laid_out(torch.stack([_hq_double(x[..., 0], x[..., 1]), _hq_double(x[..., 2], x[..., 3])], -1), n)
    return _laid_out(_curand_uniform(_engine(n, 4, generator)), n)


def _fma32(a: torch.Tensor, b: Any, c: Any) -> torch.Tensor:
    """fmaf(a, b, c) for float32 a (b, c float32 values): one rounding (through double)."""
    return (a.double() * float(b) + float(c)).to(torch.float32)


def _normals(n: int, dtype: torch.dtype, generator: Any) -> torch.Tensor:
    """curand_normal4 (curand_normal2_double for double) draws laid out as the grid-stride
    kernel writes them: each thread's draw covers lanes idx + ii * stride, and each Box-Muller
    pair is two lanes of one draw."""
    if dtype == torch.float64:
        x = _engine(n, 2, generator)
        u = _hq_double(x[..., 0], x[..., 1])
        v = (x[..., 2] ^ (x[..., 3] << 21)).to(torch.float64) * 2.0 ** -52 + 2.0 ** -53
        s = torch.sqrt(-2.0 * torch.log(u))
        return _laid_out(torch.stack([torch.sin(math.pi * v) * s, torch.cos(math.pi * v) * s], -1), n)
    x = _engine(n, 4, generator)
    c = torch.tensor(_POW32, dtype=torch.float32) * torch.tensor(2 * math.pi, dtype=torch.float32)
    lanes = []
    for a, b in ((0, 1), (2, 3)):
        u = _curand_uniform(x[..., a])
        v = _fma32(x[..., b].to(torch.float32), c, c / 2)
        s = torch.sqrt(-2.0 * torch.log(u))
        lanes += [torch.sin(v) * s, torch.cos(v) * s]  # result.x = sin, result.y = cos
    return _laid_out(torch.stack(lanes, -1), n)


def _generator_of(args: tuple, kwargs: dict, at: int) -> Any:
    return kwargs.get("generator", args[at] if len(args) > at else None)


@contextmanager
def host_stream_kept() -> Iterator[None]:
    """The block's draws from the CPU's default generator undone: a device draw leaves the
    host's stream where it was, as CUDA's generator, not the CPU's, draws it on the GPU (red
    team rt48: `torch.manual_seed(7); torch.rand(4, device="cuda"); torch.rand(4)` gave the
    seeded host values on the GPU only)."""
    state = torch.default_generator.get_state()
    try:
        yield
    finally:
        torch.default_generator.set_state(state)


@contextmanager
def host_stream_from(generator: Any) -> Iterator[None]:
    """The block draws from the CPU's default generator seeded from CUDA's (its seed and offset,
    the offset then advanced), the host's stream kept: an op the handlers do not model still
    draws from the device's generator, not the host's (values not CUDA's)."""
    seed, offset = generator_for(generator).philox_state(4)
    x = _NUMPY(_philox(seed, torch.tensor(offset // 4), torch.tensor(1 << 62)))  # a subsequence no kernel reaches
    with host_stream_kept():
        torch.default_generator.manual_seed((int(x[0]) << 32) | int(x[1]))
        yield


def _iteration_order(out: torch.Tensor) -> torch.Tensor:
    """`out` viewed in the order TensorIterator walks a nullary op's output (its dimensions by
    stride, outermost first), which the grid-stride kernel's element index follows."""
    if out.dim() < 2:
        return out
    perm = sorted(range(out.dim()), key=lambda d: (out.size(d) > 1, out.stride(d)), reverse=True)
    return out.permute(perm)


def _fill(out: torch.Tensor, values: torch.Tensor, logical: bool = False) -> torch.Tensor:
    """`values` written into `out` element by element, in TensorIterator's order (in `out`'s
    logical order where `logical`: CUDA_tensor_apply's)."""
    with torch.no_grad():
        target = out if logical else _iteration_order(out)
        target.copy_(values.view(target.shape) if target.is_contiguous() else values.reshape(target.shape))
    return out


def _uniform_into(out: torch.Tensor, low: float, high: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    dtype = out.dtype
    rand = _uniforms(out.numel(), dtype, generator)
    if dtype == torch.float64:
        frm, to = float(low), float(high)
        value = rand * (to - frm) + frm
    else:
        frm = torch.tensor(low, dtype=dtype)
        to = torch.tensor(high, dtype=dtype)
        span = (to - frm).float()
        value = _fma32(rand, span, frm.float()).to(dtype)
        frm, to = frm.item(), to.item()
    value = torch.where(value == to, torch.tensor(frm, dtype=value.dtype), value)  # (0, 1] to [0, 1)
    return _fill(out, value)


def _normal_into(out: torch.Tensor, mean: float, std: float, generator: Any) -> torch.Tensor:
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    rand = _normals(out.numel(), out.dtype, generator)
    if out.dtype == torch.float64:
        return _fill(out, rand * float(std) + float(mean))
    return _fill(out, _fma32(rand, float(torch.tensor(std, dtype=torch.float32)),
                             float(torch.tensor(mean, dtype=torch.float32))).to(out.dtype))


def h_uniform_(func: Any, args: tuple, kwargs: dict) -> Any:
    low = kwargs.get("from", args[1] if len(args) > 1 else 0.0)
    high = kwargs.get("to", args[2] if len(args) > 2 else 1.0)
    return _uniform_into(args[0], low, high, _generator_of(args, kwargs, 3))


def h_normal_(func: Any, args: tuple, kwargs: dict) -> Any:
    mean = kwargs.get("mean", args[1] if len(args) > 1 else 0.0)
    std = kwargs.get("std", args[2] if len(args) > 2 else 1.0)
    return _normal_into(args[0], mean, std, _generator_of(args, kwargs, 3))


def _factory_generator(func: Any, args: tuple, kwargs: dict) -> Any:
    return kwargs.get("generator", args[1] if func._overloadname.startswith("generator") and len(args) > 1 else None)


def _made(func: Any, args: tuple, kwargs: dict) -> Any:
    """The op's output, made by the CPU's kernel, whose draw is then overwritten: the host's
    stream kept (the CPU's generator for the call's own, which only shapes it)."""
    generator_for(kwargs.get("generator"))  # a CPU generator: CUDA's refusal
    with host_stream_kept():
        return func(*args, **kwargs)


def h_rand(func: Any, args: tuple, kwargs: dict) -> Any:
    gen = _factory_generator(func, args, kwargs)
    out = _made(func, args, kwargs)
    r = _uniform_into(out, 0.0, 1.0, gen)
    return out if r is NotImplemented else r


def h_randn(func: Any, args: tuple, kwargs: dict) -> Any:
    gen = _factory_generator(func, args, kwargs)
    out = _made(func, args, kwargs)
    r = _normal_into(out, 0.0, 1.0, gen)
    return out if r is NotImplemented else r


def h_normal(func: Any, args: tuple, kwargs: dict) -> Any:
    """normal(mean, std, ...) in its four forms: draw, then scale and shift as
    DistributionTemplates.h's normal_out_impl does (one op each)."""
    gen = kwargs.get("generator")
    out = _made(func, args, kwargs)
    if not out.is_floating_point() or out.numel() == 0:
        return out
    overload = func._overloadname
    mean = kwargs.get("mean", args[0] if args else 0.0)
    std = kwargs.get("std", args[1] if len(args) > 1 else 1.0)
    if overload in ("float_float", "float_float_out"):
        return _normal_into(out, mean, std, gen)
    if overload == "Tensor_float":
        _normal_into(out, 0.0, std, gen)
        return out.add_(mean)
    _normal_into(out, 0.0, 1.0, gen)
    return out.mul_(std).add_(mean)


def _bernoulli_into(out: torch.Tensor, p: Any, generator: Any) -> Any:
    """bernoulli_ with a float p: uniform_and_transform's `rand < p` (float32, double for
    double); with a tensor p: bernoulli_tensor_cuda_kernel's `rand <= p`, p in float32 (double
    for a double `out`), each thread's one curand_uniform4 covering four elements in `out`'s
    logical order (CUDA_tensor_apply2, four a thread), the offset advanced by 10 (12)."""
    if out.numel() == 0 or out.is_complex():
        return NotImplemented
    if not isinstance(p, torch.Tensor):
        acc = torch.float64 if out.dtype == torch.float64 else torch.float32
        rand = _uniforms(out.numel(), out.dtype, generator)
        return _fill(out, (rand < torch.tensor(float(p), dtype=acc)).to(out.dtype))
    seed, offset = generator_for(generator).philox_state(10)
    n = out.numel()
    draws = _philox(seed, torch.tensor(offset // 4), torch.arange(-(-n // 4), dtype=torch.int64))
    rand = _curand_uniform(draws).reshape(-1)[:n].view(out.shape)
    prob = p.to(torch.float64 if out.dtype == torch.float64 else torch.float32).expand(out.shape)
    return _fill(out, (rand.to(prob.dtype) <= prob).to(out.dtype), logical=True)


def h_bernoulli_(func: Any, args: tuple, kwargs: dict) -> Any:
    p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    return _bernoulli_into(args[0], p, _generator_of(args, kwargs, 2))


def h_bernoulli(func: Any, args: tuple, kwargs: dict) -> Any:
    gen = kwargs.get("generator", args[2] if len(args) > 2 else None)
    out = _made(func, args, kwargs)
    if func._overloadname == "p":
        p = kwargs.get("p", args[1] if len(args) > 1 else 0.5)
    else:
        p = args[0]
    r = _bernoulli_into(out, p, gen)
    return out if r is NotImplemented else r


def h_exponential_(func: Any, args: tuple, kwargs: dict) -> Any:
    """exponential_kernel: -1/lambda * log(rand), log(rand) taken as -eps/2 of the
    accumulation type (float32, double for double) where rand >= 1 - eps/2."""
    out = args[0]
    if not out.is_floating_point() or out.numel() == 0:
        return NotImplemented
    acc = torch.float64 if out.dtype == torch.float64 else torch.float32
    lambd = torch.tensor(float(kwargs.get("lambd", args[1] if len(args) > 1 else 1.0)), dtype=acc)
    rand = _uniforms(out.numel(), out.dtype, _generator_of(args, kwargs, 2))
    eps = torch.finfo(acc).eps / 2
    log = torch.where(rand >= 1.0 - eps, torch.tensor(-eps, dtype=acc), torch.log(rand))
    return _fill(out, ((-1.0 / lambd) * log).to(out.dtype))
