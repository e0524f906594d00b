"""What a candidate kernel file may name: the allowlist behind evaluator.static_checks.

Policy. A kernel file is a module of Triton kernels plus an nn.Module that launches
them. Everything it writes is checked against the tables below; whatever they do not
list is rejected, so a new trick needs a new entry here, not a new rule elsewhere.

  imports     the namespaces of evaluator.static_namespaces (torch and the parts of it listed
              there, triton, triton.language with tl.math and libdevice, the device
              queries of triton.runtime.driver.active (written out from `triton.`,
              never imported: ATTRIBUTE_ONLY), triton.tools.tensor_descriptor's
              TensorDescriptor, math, typing, __future__, functools, itertools,
              dataclasses, enum, einops' tensor functions, packaging.version's Version
              and parse for a version gate), narrowed by
              StaticConfig.allowed_imports. Other modules: DANGEROUS_MODULES and every
              stdlib module not in HARMLESS_MODULES are a hack (they reach the
              interpreter, files, processes, the network or process-wide state);
              HARMLESS_MODULES and unknown third-party modules are a compile error
              (not available in the sandbox).
  names       every dotted name rooted in an import (`torch.x.y`, `from torch import
              x`, whatever alias or default argument holds it) must walk the namespaces
              down to a listed name. torch compute is allowed: the runtime judges
              whether the Triton kernels did the work (coverage and knock-out), so a
              cuBLAS matmul with a Triton epilogue is honest. Data-derived families,
              computed once from the imported libraries (the worker imports them
              anyway): the aten operators `torch._C._VariableFunctions` exports
              (minus three that read files or foreign memory, and the fbgemm and
              quantisation families, which compute outside the dispatcher) and torch.functional,
              torch's dtypes, layouts and memory formats, the nn.Module subclasses of
              torch.nn (minus DataParallel, which runs threads), the functions of
              torch.nn.functional / nn.init / linalg / fft / special, and the public
              non-module names of triton.language, tl.math and libdevice that their
              library defines (not a helper they import: tl.math.wraps). torch.cuda
              offers device queries and synchronize, not current_stream: Triton
              launches on the current stream by itself, and a stream object is the
              handle to events and cross-stream waits. A module is only ever the base
              of an attribute (`t = torch`, `f(tl)` are reflection); a kernel is only
              launched (`k[grid](...)` as a statement: what it returns is the
              compiled kernel, whose own launcher skips the harness's hook and takes
              any stream), called from a kernel or passed as the
              combine function of KERNEL_ARGUMENTS (tl.reduce, tl.associative_scan,
              tl.map_elementwise), never handled as an object; so are Triton's own
              JIT functions (static_namespaces `jit_functions`: tl.sum, tl.softmax,
              triton.cdiv), only ever called (or aliased once at module level:
              `next_power_of_2 = triton.next_power_of_2`), since their attributes are Triton
              internals (get_capture_scope() is a module's globals, run the
              launcher); a name the file never defines is a compile error.
  builtins    BUILTINS may be used freely, CALL_ONLY_BUILTINS only when called
              directly (getattr/hasattr with a constant public name; setattr/delattr
              on `self` only; super()); every other builtin is rejected, aliasing
              (`g = getattr`) included. `type` is rejected whole: isinstance answers
              the honest question and a class object is a handle to monkey-patch.
  attributes  dunder attributes only as `super().__init__(...)` / `Base.__init__(self,
              ...)` and NAME_ATTRIBUTES read (`fn.__name__`, `self.__class__.__name__`:
              a string); dunder names only `__name__` (and MODULE_DUNDERS bound at module
              level to a literal list of strings: `__all__ = ["ModelNew"]`); private `_x` only on `self`, and
              never nn.Module's own internals (`_forward_hooks`, `_modules`, ...).
              DENIED_ATTRIBUTES (and any name containing "hook" or "storage" but
              storage_offset, and frame/code
              prefixes) are rejected on every object: they install hooks, reach
              storage, files, streams, frames or the compiler; so are the attributes
              that hand out a class (static_namespaces `class_attributes`: `mro`,
              `tl.float32.KIND`). A classmethod's `cls` is its class (called, or
              read from, never a value), and super() takes no arguments but
              `super(C, self)`. str.format (called or not) only on a literal whose
              fields, format specs' nested fields included, read no attributes.
  assignment  attribute assignment only on `self` (and on `ctx` in an
              autograd.Function), never to a method name; on an object held by self
              only NESTED_STORES (`self.linear.weight = ...`, or through a local bound once
              to such a chain, `bn = self.bn; bn.num_batches_tracked += 1`, or a helper's
              parameter every call hands one); subscript assignment only
              on the function's locals, self's attributes and the items of a
              module-level container of the file's own (`_CACHE = {}`; `_CACHE[k] = v`). Modules, classes and
              kernels are never written; an imported name, a class or a kernel is
              never rebound (not even where the binding never runs), and a
              module-level name never shadows a builtin outside BUILTINS (where the
              binding has not run, the name is the builtin). In a class body a name
              is what the statements above bound, else what it is outside the class.
  classes     BASES, earlier classes of the file, or none (an interface base, abc.ABC or
              typing.Protocol, never beside a torch, enum or exception one); no keywords; bodies of
              methods, a docstring and literal constants (or dataclasses.field);
              a kernel in a class only as static_member_kernels takes it (a
              @staticmethod launched on the class or its classmethod's cls);
              dunder methods only __init__, and no override of an nn.Module method
              but OVERRIDABLE; decorators only DECORATORS (and, on a plain class, a
              property's own `@name.setter`, with `__slots__` of plain names there);
              `with` only CONTEXT_MANAGERS.
  syntax      no try/except but at module level, no yield from, await, async,
              nested classes; `nonlocal` only for a host closure's counter or flag
              (static_walk `_s_Nonlocal`: bound only to literal constants and by `op=`); `match` only in host code, its patterns judged
              as the comparisons, isinstance tests, attribute reads and bindings they are
              (static_match); `yield` only in a plain def with
              no try or with of its own (static_expressions._e_Yield). `global` only
              in a host function, its names bound in the module (static_scopes) and so
              held to the module-level binding rules; never in a kernel.
  settings    literal module-level lines of evaluator.static_settings: precision
              switches, `triton.set_allocator` of a stateless allocator, and warning
              filters other than "error".
  typing      a class may be the type `typing.cast(T, value)` takes.
  idioms      a decorator of the file's own, a logger, an import fallback, benchmark
              functions and an FX leaf registration (`torch.fx.wrap`, dropped before the
              run), each in the one shape evaluator.static_idioms describes.
  conditions  a module-level `if` keeps only its arm that runs where the condition is
              known before anything runs; otherwise each file its arms make is judged
              (evaluator.static_branches).
  test block  the body of a module-level `if __name__ == "__main__":` (no else) is
              neither checked nor bound: the harness imports the file under a module
              name of its own (evaluator.runner, `krl_candidate_<n>`) and a candidate
              cannot rebind `__name__` (no dunder binding, globals(), sys or module
              setattr), so that body never runs. Only its test is checked.

Hack codes (a finding's `code`): forbidden_import, concurrency, file_access,
dynamic_code, reflection, monkey_patch, harness_tamper, side_stream, clock, try_except,
forbidden_api (a name of an allowed module that is not listed), forbidden_syntax,
no_triton_kernel. Compile errors: syntax_error, relative_import, star_import,
unavailable_module, undefined_name, too_deeply_nested, device_syntax (a lambda, generator
expression or set/dict comprehension in a kernel body: the GPU compiler's refusal), unchecked (the checker failed on a
construct: refused, logged), too_costly (the checks ran past StaticConfig.check_budget_s). Format errors come from
decoding and from a missing ModelNew/forward.
"""
from __future__ import annotations

import abc
import re
import sys
import typing

# ---------------------------------------------------------------------- imports
# Modules that are a hack to import, with the reason a finding gives. Threads and
# processes are `concurrency`, the rest `forbidden_import`.
CONCURRENCY_MODULES = frozenset({"threading", "_thread", "multiprocessing", "concurrent",
                                 "asyncio", "subprocess", "sched", "queue"})
DANGEROUS_MODULES: dict[str, str] = {
    **dict.fromkeys(CONCURRENCY_MODULES, "it runs work outside forward's thread"),
    **dict.fromkeys(("os", "sys", "builtins", "gc", "inspect", "types", "importlib", "pkgutil",
                     "code", "codeop", "runpy", "zipimport", "ctypes", "cffi"),
                    "it reaches the interpreter, other modules' objects or raw memory"),
    **dict.fromkeys(("io", "pathlib", "shutil", "tempfile", "glob", "mmap", "pickle", "dill",
                     "cloudpickle", "joblib", "marshal", "shelve", "dbm", "sqlite3", "zipfile",
                     "tarfile", "array"),
                    "it reads or writes files (and unpickling runs code)"),
    **dict.fromkeys(("time", "timeit", "random", "atexit", "signal", "resource",
                     "faulthandler", "tracemalloc"),
                    "it reaches clocks, signals, RNG or other process-wide state"),
    # numpy reads and writes files and raw memory; the others launch non-Triton kernels
    **dict.fromkeys(("numpy", "cupy", "numba", "pycuda"),
                    "it computes outside torch and Triton"),
    **dict.fromkeys(("evaluator", "common", "actor", "learner", "launcher", "zmq", "msgspec",
                     "psutil", "requests", "urllib3", "socket", "ssl", "select", "http", "urllib"),
                    "it reaches the harness or the network"),
}
# Harmless stdlib modules a kernel does not need: importing one is a compile error (unavailable),
# not a hack. Any other stdlib module (sys, os, inspect, ...) is a hack: `forbidden_import`.
HARMLESS_MODULES = frozenset({
    "collections", "copy", "numbers", "string", "re", "bisect", "heapq", "statistics",
    "fractions", "decimal", "textwrap", "json", "pprint",
})
STDLIB_MODULES = frozenset(sys.stdlib_module_names)
# Modules a kernel file's self-test imports (`if __name__ == "__main__":`): accepted only where
# nothing but the test block and test-only functions names what they bind (static_shapes);
# importing them runs nothing of note
TEST_MODULES = frozenset({"sys", "argparse", "time", "timeit", "statistics", "random", "numpy",
                          "pytest", "unittest", "torch.testing", "triton.testing"})

# ---------------------------------------------------------------------- builtins
BUILTINS = frozenset({
    "abs", "all", "any", "bool", "callable", "chr", "complex", "dict", "divmod", "enumerate",
    "filter", "float", "format", "frozenset", "hash", "int", "isinstance", "issubclass", "iter",
    "len", "list", "map", "max", "min", "next", "object", "ord", "pow", "print", "range", "repr",
    "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip", "bin", "hex",
    "oct", "bytes", "staticmethod", "classmethod", "property", "NotImplemented", "Ellipsis",
    # exceptions to raise (there is no try/except to catch them)
    "Exception", "ArithmeticError", "AssertionError", "AttributeError", "IndexError",
    "KeyError", "LookupError", "NotImplementedError", "OverflowError", "RuntimeError",
    "StopIteration", "TypeError", "ValueError", "ZeroDivisionError",
    # and to name in a module-level try's handler: narrower than the Exception it may name
    # already (mamba's `try: import triton; TRITON_VERSION = version.parse(triton.__version__)
    # except ImportError: ...`, honest round s51b; FlagGems' and xformers' `raise ImportError`)
    "ImportError",
    # warning categories, for warnings.warn
    "Warning", "UserWarning", "RuntimeWarning", "DeprecationWarning", "FutureWarning",
})
CALL_ONLY_BUILTINS = frozenset({"getattr", "hasattr", "setattr", "delattr", "super"})
# builtins a file may name but never bind at module level: the import fallbacks are read off
# `except ImportError:` by its text (evaluator.static_idioms), as ModuleNotFoundError, which the
# pins raise, is off the list altogether
NEVER_REBOUND_BUILTINS = frozenset({"ImportError"})
# Code for builtins outside both sets (default: forbidden_api).
DENIED_BUILTINS: dict[str, str] = {
    **dict.fromkeys(("exec", "eval", "compile", "__import__", "breakpoint", "__build_class__"),
                    "dynamic_code"),
    **dict.fromkeys(("open", "input"), "file_access"),
    **dict.fromkeys(("globals", "locals", "vars", "dir", "type", "id", "memoryview", "help"),
                    "reflection"),
    **dict.fromkeys(("exit", "quit"), "harness_tamper"),
}

# ---------------------------------------------------------------------- decorators & co.
# Decorators: qualified name -> (where: "f"unction/"m"ethod/"c"lass, allowed keywords;
# None: bare only, no call).
DECORATORS: dict[str, tuple[str, frozenset[str] | None]] = {
    "staticmethod": ("m", None), "classmethod": ("m", None), "property": ("m", None),
    "torch.no_grad": ("fm", frozenset()), "torch.inference_mode": ("fm", frozenset({"mode"})),
    "triton.jit": ("fm", frozenset({"do_not_specialize", "do_not_specialize_on_alignment",
                                    "debug", "noinline"})),
    # autotune: no pre_hook/post_hook/do_bench/use_cuda_graph (hooks into the launcher)
    "triton.autotune": ("fm", frozenset({"configs", "key", "reset_to_zero", "restore_value",
                                         "warmup", "rep", "prune_configs_by", "cache_results"})),
    "triton.heuristics": ("fm", frozenset({"values"})),
    "torch.autograd.function.once_differentiable": ("m", None),
    # keeps torch.compile from tracing a launcher (an eager child never compiles: a plain
    # call); bare or with a literal `recursive`, on a function (honest round s31b)
    "torch.compiler.disable": ("f", frozenset({"recursive"})),
    "functools.lru_cache": ("fm", frozenset({"maxsize", "typed"})),
    "functools.cache": ("fm", None),
    # a method's value computed once per instance on first read (as property, each read)
    "functools.cached_property": ("m", None),
    # autocast around an autograd.Function's forward/backward (unsloth, Liger, flash-attn)
    "torch.amp.custom_fwd": ("fm", frozenset({"device_type", "cast_inputs"})),
    "torch.amp.custom_bwd": ("fm", frozenset({"device_type"})),
    "torch.cuda.amp.custom_fwd": ("fm", frozenset({"cast_inputs"})),
    "torch.cuda.amp.custom_bwd": ("fm", None),
    "dataclasses.dataclass": ("c", frozenset({"frozen", "eq", "order", "repr", "slots",
                                              "kw_only", "init"})),
    # typed wrappers' signature stubs (honest round s50): each stub becomes typing's dummy and
    # the last def of the name is what runs; enum.unique only checks the members for aliases, and
    # typing.final only marks the object
    "typing.overload": ("fm", None), "enum.unique": ("c", None), "typing.final": ("fmc", None),
    # a module-level host function that picks its implementation by its first argument's type
    # (honest round s50; session 51c): bare only; its `@f.register` / `@f.register(C)` lines are
    # checked by static_walk (`_dispatch_register`: a module-level def of the file, C a builtin
    # type of DISPATCH_TYPES or a class of the file, never a torch class), and the function's
    # attributes (register, dispatch, registry) are never read as values
    "functools.singledispatch": ("f", None),
    # an interface's stub (session 51c): sets __isabstractmethod__, so a class that leaves it
    # unimplemented refuses to be instantiated; nothing else
    "abc.abstractmethod": ("m", None),
    # autocast around a function, as `with` around its body (honest round s50: mixed-precision
    # code decorates forward so): settings as literals (the dtype a torch dtype)
    **dict.fromkeys(("torch.autocast", "torch.amp.autocast"),
                    ("fm", frozenset({"device_type", "dtype", "enabled", "cache_enabled"}))),
    "torch.cuda.amp.autocast": ("fm", frozenset({"dtype", "enabled", "cache_enabled"})),
}
# Names that only make sense as decorators (as values they build kernels or caches the checker
# never sees declared); importable by name where all of an import's names are (attorch, s26)
DECORATOR_ONLY = frozenset({"triton.jit", "triton.autotune", "triton.heuristics", "typing.overload",
                            "enum.unique", "typing.final", "functools.singledispatch", "abc.abstractmethod",
                            "functools.wraps", "torch.autograd.function.once_differentiable",
                            *(f"torch{m}.amp.custom_{d}" for m in ("", ".cuda") for d in ("fwd", "bwd"))})
# The classes a singledispatch implementation may be registered for: builtin value types
DISPATCH_TYPES = frozenset({"int", "float", "bool", "str", "tuple", "list", "dict", "complex"})
# Names allowed only in one definition of evaluator.static_idioms: the logger.
DEFINITION_ONLY = frozenset({"logging.getLogger"})
# Library calls that take one of the file's kernels as their function argument, which
# the compiler inlines (`tl.reduce(x, 0, combine)`): name -> (position, keyword).
KERNEL_ARGUMENTS: dict[str, tuple[int, str]] = {
    "triton.language.reduce": (2, "combine_fn"),
    "triton.language.associative_scan": (2, "combine_fn"),
    "triton.language.map_elementwise": (0, "scalar_fn"),
}
# autocast: a kernel wrapper turning autocast off around its launch (or on: what torch then
# computes is judged by correctness); restored on exit like no_grad
CONTEXT_MANAGERS = frozenset({"torch.no_grad", "torch.inference_mode", "torch.cuda.device",
                              # the default device of the block's allocations (cute-kernels
                              # around every launch; honest round s44)
                              "torch.device", "torch.cuda.device_of",
                              "torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast",
                              # a named profiler range (vLLM, torchtitan; honest round s41): the
                              # harness's profiles count kernels, never ranges (timing._kernel_times)
                              "torch.profiler.record_function", "torch.autograd.profiler.record_function",
                              # an NVTX range around a launch (vLLM, Megatron; honest round s49): its
                              # push and pop are the allowed torch.cuda.nvtx calls, no profile the
                              # harness reads sees it; entered only, on one literal message
                              # (static_walk: the message's .format(*args) never reaches a value)
                              "torch.cuda.nvtx.range",
                              # nothing entered: the other arm of a device switch (honest round s49)
                              "contextlib.nullcontext"})
RANGES = frozenset({"torch.profiler.record_function", "torch.autograd.profiler.record_function"})
NVTX_RANGES = frozenset({"torch.cuda.nvtx.range"})
# Version strings read off a library (`triton.__version__.split(".")`): text, nothing else.
VERSION_ATTRIBUTES = frozenset({"torch.__version__", "triton.__version__"})
# Enum classes: called with one value they look a member up; with members (the functional
# API, `Enum("E", [("__del__", f)], type=float)`) they build a class at run time (red team,
# session 18), which static_expressions refuses.
ENUM_CLASSES = frozenset({"enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag"})
# nn's parameter-holding leaf modules: a drop-in `class FastLinear(nn.Linear)` with a Triton
# forward is a common style (honest round, session 30). Their machinery is nn.Module's (the
# methods the harness calls stay refused as overrides); what they inherit computes through
# dispatched aten ops (F.linear, F.conv2d, F.layer_norm), which the policy judges at run time.
LEAF_MODULE_BASES = frozenset("torch.nn." + n for n in (
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "LayerNorm", "GroupNorm", "RMSNorm", "BatchNorm1d", "BatchNorm2d",
    "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "Embedding",
    # parameterless activations a drop-in layer subclasses for their settings (attorch's
    # `class GELU(nn.GELU)` keeps `approximate`; honest round s37)
    "GELU", "ReLU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "ELU", "Mish", "Softplus",
    "Hardtanh", "Softmax", "LogSoftmax", "Dropout",
    # losses, for their reduction settings and class weights (attorch's
    # `class CrossEntropyLoss(nn.CrossEntropyLoss)`: honest round s42); a forward left to the
    # base computes with PyTorch, which the knock-out sees as it sees an activation's
    "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
    "BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss"))
INTERFACE_BASES = frozenset({"abc.ABC", "typing.Protocol"})
# What typing's and abc's machinery reads off an interface class by a private name (red team
# s51e: `_is_runtime_protocol = True` in a Protocol's body made isinstance, and singledispatch's
# issubclass, answer structurally for any object, a tensor too: hasattr of the Protocol's
# member names, private ones included; `_is_protocol`, `_abc_impl` steer the rest): read from
# the installed library, so a name a later Python adds is in the list
INTERFACE_MACHINERY = frozenset(n for b in (typing.Protocol, abc.ABC) for n in dir(b)
                                if n.startswith("_") and not (n.startswith("__") and n.endswith("__")))
BASES = frozenset({"torch.nn.Module", "torch.autograd.Function", "enum.Enum", "enum.IntEnum",
                   "enum.StrEnum", "enum.Flag", "enum.IntFlag", "typing.NamedTuple", "object",
                   # an interface of plain launcher classes (honest round s50; session 51c), never
                   # beside a torch or enum base (static_walk `_interface`): ABCMeta's machinery
                   # is register (refused read off a class), __subclasshook__ (a dunder method,
                   # refused) and abstract-method bookkeeping; a Protocol answers isinstance only
                   # under @typing.runtime_checkable, which is not listed (TypeError otherwise)
                   *INTERFACE_BASES}) | LEAF_MODULE_BASES | frozenset({
    # an error type of the file's own (unsloth's, Liger's): what `raise` may already raise,
    # under another name; never one the harness treats apart (MemoryError, BaseException's)
    "Exception", "RuntimeError", "ValueError", "TypeError", "NotImplementedError", "KeyError",
    "IndexError", "LookupError", "ArithmeticError"})
# a value type an enum may mix in (`class Mask(str, Enum)`: xformers), beside an enum base only
ENUM_MIXINS = frozenset({"str", "int"})
# Flag and IntFlag (honest round s50's option sets, session 51c): their machinery beyond Enum's
# is member arithmetic (|, &, ~, in) and `_missing_` building a pseudo-member of combined bits
# under the class's boundary (STRICT for Flag, KEEP for IntFlag; set only by a class keyword or
# a `_boundary_` of an enum.* constant, both refused: a body holds literal constants), so every
# value a member holds is an int the body wrote
ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})
# What a decorator call may take positionally: 0 nothing, "literal" constants only. A callable
# there is the decorator's own argument (`functools.lru_cache(g)` and
# `torch.compiler.disable(g)` wrap g and so hand the decorated def to g: red team s31d's
# `@torch.compiler.disable(lambda f: f.fn)` turned a kernel's name into its host function).
# Settings a decorator call may take from a `**NAME` dict of the file (static_walk
# `_splat_settings`): plain values only, none that hands the decorator a callable.
SPLAT_SETTINGS = frozenset({"cache_results", "warmup", "rep"})
# Keywords of DECORATOR_LITERAL_KEYWORDS take literals only.
DECORATOR_POSITIONALS: dict[str, int | str] = {
    "torch.compiler.disable": 0, "torch.no_grad": 0, "triton.jit": 0, "torch.amp.custom_fwd": 0,
    "torch.amp.custom_bwd": 0, "torch.cuda.amp.custom_fwd": 0, "dataclasses.dataclass": 0,
    "torch.inference_mode": "literal", "functools.lru_cache": "literal",
    "torch.autocast": "literal", "torch.amp.autocast": "literal", "torch.cuda.amp.autocast": "literal",
}
DECORATOR_LITERAL_KEYWORDS: dict[str, frozenset[str]] = {
    "torch.compiler.disable": frozenset({"recursive"}), "torch.inference_mode": frozenset({"mode"}),
    "functools.lru_cache": frozenset({"maxsize", "typed"}),
    **dict.fromkeys(("torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast"),
                    frozenset({"device_type", "enabled", "cache_enabled"})),
}
# Calls whose keywords are restricted. Config(pre_hook=f): the autotuner calls f(nargs) on the
# host before each launch of that config (and in the knock-out, whose launches it skips after),
# outside the launch itself: host code of the file's, checked as code, as forward is; its use
# is `init_to_zero` for a split-K or atomic output (triton.ops; honest round, session 21).
# post_hook stays out: it runs after the launch, inside Triton's launcher.
CALL_KEYWORDS: dict[str, frozenset[str]] = {
    "triton.Config": frozenset({"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook",
                                "num_buffers_warp_spec", "num_consumer_groups",
                                "reg_dec_producer", "reg_inc_consumer"}),
}
# Dunder uses: `__init__` called on super() or a base class with self; `__name__` read.
DUNDER_ATTRIBUTES = frozenset({"__init__"})
DUNDER_NAMES = frozenset({"__name__"})
# Dunder attributes read as a string: `fn.__name__`, `self.__class__.__name__`.
NAME_ATTRIBUTES = frozenset({"__name__", "__qualname__"})
# Dunder names a module may bind, at module level and only to a literal list/tuple of
# strings: `__all__` is read by star imports, and the harness does none.
MODULE_DUNDERS = frozenset({"__all__", "__version__", "__author__"})
# ... of which these hold one literal string (a library-style file's `__version__ = "0.1"`;
# honest round, session 21): text nothing reads
MODULE_TEXT_DUNDERS = frozenset({"__version__", "__author__"})
# dunder names a class body may bind, each to literal strings: TorchScript's list of constant
# attributes, which torch.nn's own modules and lit-llama's RMSNorm declare (eager PyTorch and
# the harness never read it; honest round s38)
CLASS_DUNDERS = frozenset({"__constants__"})
DUNDER_METHODS = frozenset({"__init__"})
# dunder methods a class may define where its shape says who calls them (static_walk
# `_own_dunder`): a dataclass's __post_init__ (its __init__ calls it); __call__ of a plain
# class no class of the file builds on (called where the file calls the object; the harness
# calls only ModelNew and its nn.Module children, whose __call__ is nn.Module's)
SHAPED_DUNDER_METHODS = frozenset({"__post_init__", "__call__"})
# nn.Module methods a class may define (any other nn.Module method or internal is one the
# harness may call: .to(), .eval(), _call_impl, ...). Function's are not Module methods.
OVERRIDABLE = frozenset({"__init__", "forward", "extra_repr"})
# Attributes that may be assigned on an object held by self (`self.linear.weight = ...`,
# `self.w.requires_grad = False`); any other `self.a.b = v` could write into an object the
# libraries share (self.t = tl.float32; self.t.primitive_bitwidth = 16).
NESTED_STORES = frozenset({"data", "requires_grad", "weight", "bias", "running_mean", "running_var",
                           "num_batches_tracked", "momentum", "eps"})

# ---------------------------------------------------------------------- attributes
# Rejected on any object; "hook" anywhere in a name and FRAME_PREFIXES too.
DENIED_ATTRIBUTES: dict[str, str] = {
    **dict.fromkeys(("storage", "untyped_storage", "share_memory", "share_memory_", "tofile",
                     "from_file", "from_buffer", "load_inline"), "file_access"),
    **dict.fromkeys(("record_stream", "wait_stream", "wait_event", "record_event",
                     "cuda_stream"), "side_stream"),
    "numpy": "forbidden_api", "compile": "harness_tamper",
    # a Triton value's IR handle: under the interpreter it holds a numpy array (files,
    # raw memory, host compute); no kernel needs it
    "handle": "forbidden_api", "dump": "file_access", "dumps": "file_access",
    # host Python run per element (apply_, map_, map2_): compute neither meter nor the torch
    # knock-out sees. (`tolist` is allowed: in a candidate child it reads through one dispatched
    # `.item()` per element wherever a mode watches, `watched_reads.library_reads_visible`, so
    # it is an `.item()` loop to every watch; MoE routing's `counts.tolist()`, session 64)
    **dict.fromkeys(("apply_", "map_", "map2_"), "forbidden_api"),
    # a tensor of another layout: a sparse one's unchecked indices wrote past every bound
    # (red team rt52; static_namespaces._VF_DENIED_PART), an mkldnn one exists on the CPU only
    **dict.fromkeys(("to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
                     "to_sparse_bsc", "sparse_mask", "sparse_resize_", "sparse_resize_and_clear_",
                     "resize_as_sparse_", "to_mkldnn"), "forbidden_api"),
    # aten kernels that trust index data (scripts/audit_index_ops.py, session 50f): set_ with
    # an empty stride keeps the old strides unchecked against the new storage (a fill wrote
    # past it); median/nanmedian over a dim of a zero-stride tensor read past its storage;
    # as_strided_ with a stride of 2**63 - 1 skips as_strided's overflow check and its view
    # reaches the bytes before the storage (session 51d: pointer-like 4.6e-41 and -7.6e28 read
    # out of arange(16); a fill through it writes there)
    **dict.fromkeys(("set_", "median", "nanmedian", "as_strided_"), "forbidden_api"),
}
FRAME_PREFIXES = ("f_", "gi_", "co_", "cr_", "ag_", "tb_")
# "storage" anywhere in an attribute's name is file_access but for these: a tensor's storage
# and its class (storage_type() hands out torch.FloatStorage, whose .type("a.b") imports any
# module by name and whose from_buffer fills memory no dispatched op made: red team s30b)
STORAGE_NAMES_ALLOWED = frozenset({"storage_offset"})

# ---------------------------------------------------------------------- clocks
# A kernel file gets no clock: time is the evaluator's to measure, and a clock is how a
# forward tells a profiled run from a plain one (the profiler slows launches: red team,
# session 18, read %globaltimer around a few aten ops to pad only the profiled runs). The
# host has none (time, os and torch.cuda.Event are not on the allowlist); on the device the
# clock registers are read by Triton's globaltimer() or by inline assembly, whose text must
# then be a literal the checker reads. NVIDIA's clocks are special registers (%clock,
# %clock64, %globaltimer, the %pm counters); AMD's are instructions: s_memtime and
# s_memrealtime, and, from RDNA 2 / RDNA 3 on, a hardware register read (s_getreg_b32 of
# HW_REG_SHADER_CYCLES) and a message that returns the real-time clock (s_sendmsg_rtn_b64
# MSG_RTN_GET_REALTIME), which the first pattern missed (red team s25, rt25_asm_amd_*). A
# kernel's arithmetic needs neither hardware-register reads nor messages, so every s_getreg
# and s_sendmsg is refused, whatever register or message it names (numbered or by name).
CLOCK_FUNCTIONS = frozenset({"triton.language.extra.cuda.globaltimer"})
ASM_CALLS = frozenset({"triton.language.inline_asm_elementwise"})
CLOCK_REGISTERS = re.compile(r"%(clock|globaltimer|pm\d)|s_mem(real)?time|s_getreg|s_sendmsg|shader_cycles|realtime",
                             re.IGNORECASE)  # %pm: counters

# ---------------------------------------------------------------------- denied API codes
# Which hack code an unlisted name gets (longest dotted prefix wins; the decision to
# reject is the allowlist's, this only names the reason). Default: forbidden_api;
# a private component or a module the namespace re-exports (torch.sys): reflection.
DENIED_API: dict[str, str] = {
    **dict.fromkeys(CLOCK_FUNCTIONS, "clock"),
    # contextlib is importable for nullcontext alone (honest round s49); suppress is a try/except
    # written as a context manager (rt23: a PyTorch result stands whenever the launch raises)
    "contextlib.suppress": "try_except",
    **dict.fromkeys(("torch.save", "torch.load", "torch.from_file", "torch.frombuffer",
                     "torch.hub", "torch.utils", "torch.package",
                     "torch.serialization", "torch.storage", "torch.UntypedStorage",
                     "torch.TypedStorage"), "file_access"),
    **dict.fromkeys(("torch.Stream", "torch.Event", "torch.cuda.Stream", "torch.cuda.stream",
                     "torch.cuda.streams", "torch.cuda.current_stream", "torch.cuda.Event",
                     "torch.cuda.default_stream", "torch.cuda.set_stream",
                     "torch.cuda.ExternalStream", "torch.cuda.StreamContext", "torch.cuda.graph",
                     "torch.cuda.graphs", "torch.cuda.CUDAGraph",
                     "torch.cuda.make_graphed_callables"), "side_stream"),
    **dict.fromkeys(("torch.manual_seed", "torch.seed", "torch.initial_seed", "torch.random",
                     "torch.get_rng_state", "torch.set_rng_state", "torch.Generator",
                     "torch.default_generator", "torch.cuda.manual_seed", "torch.cuda.seed",
                     "torch.cuda.manual_seed_all", "torch.cuda.seed_all", "torch.cuda.random",
                     "torch.cuda.get_rng_state", "torch.cuda.set_rng_state", "torch.backends",
                     "torch.use_deterministic_algorithms", "torch.cuda.memory",
                     "torch.cuda.empty_cache", "torch.cuda.nvtx", "torch.cuda.profiler",
                     "torch.profiler", "torch.autograd", "torch.overrides", "torch.library",
                     "torch.ops", "torch.classes", "torch.jit", "torch.compile",
                     "torch.compiler", "torch.fx", "torch.export", "torch.testing",
                     "torch.func", "torch.autocast", "torch.amp", "torch.cuda.amp",
                     "triton.runtime", "triton.compiler", "triton.backends", "triton.knobs",
                     "triton.testing", "triton.tools", "triton.JITFunction",
                     "triton.KernelInterface", "triton.compile", "triton.set_allocator"),
                    "harness_tamper"),
    **dict.fromkeys(("torch.distributed", "torch.multiprocessing", "torch.nn.DataParallel",
                     "torch.nn.parallel", "torch.futures"), "concurrency"),
}
SETTERS = ("torch", "torch.cuda")  # torch.set_*, torch.cuda.set_*: harness_tamper

# Names public Triton code still uses that the installed Triton removed: what a compile error
# for one tells the author to write instead (honest round, session 25: Triton 3.9 dropped
# block pointers, whose tl.advance the tutorials of 2.x-3.3 use; tl.make_block_ptr itself
# raises at compile time with Triton's own message to the same effect). A CPU evaluation writes
# block pointers out as plain loads and stores first (evaluator.block_pointers), so this is what
# a check without that rewrite says.
REMOVED_API: dict[str, str] = {
    "triton.language.advance": "block pointers were removed from this Triton: describe the "
    "tensor with tl.make_tensor_descriptor(base, shape, strides, block_shape) and read tiles "
    "at moving offsets with desc.load([row, col]) (or pass a TensorDescriptor from the host)",
}


# What to write instead, per code (a finding may say something more specific).
HINTS: dict[str, str] = {
    "forbidden_import": "import only torch, triton, triton.language, math, typing, functools, "
                        "itertools, dataclasses and enum (and os, for os.getenv)",
    "concurrency": "do the work in forward, on the calling thread",
    "file_access": "keep data in memory: a kernel file touches no files and no raw storage",
    "dynamic_code": "write the code out in the file",
    "reflection": "name what you use directly (torch.relu, tl.load, self.weight)",
    "monkey_patch": "keep your own state on self and leave modules, classes and library "
                    "objects as they are",
    "harness_tamper": "leave process-wide settings (seeds, backends, compiler, launcher) alone",
    "side_stream": "launch on the current stream, as kernel[grid](...) does",
    "clock": "leave time to the evaluator: a kernel reads no clock",
    "forbidden_api": "use torch's tensor API (torch.*, torch.nn, torch.nn.functional), "
                     "triton.language and your own kernels",
    "forbidden_syntax": "write plain functions, classes and loops",
    "try_except": "let errors propagate; test conditions with if",
    "identity": "compare with == (keep `is` for None, True/False, dtypes and enum members)",
    "unicode_version": "write text as literals of characters both Pythons know, and numbers as digits",
}
