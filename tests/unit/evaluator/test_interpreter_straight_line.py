"""Which combine functions of tl.reduce / tl.associative_scan the CPU interpreter runs on whole
blocks (evaluator.interpreter_reduce.straight_line, evaluator.interpreter_elementwise): a
straight-line elementwise combine, helpers and dtype-only branches included, goes on blocks as
the GPU inlines it; one that branches on values or reads its operands' shape goes element by
element. Split from test_interpreter_reduce (these need no interpreter child)."""
from __future__ import annotations


def test_a_combine_calling_a_straight_jit_helper_by_name_is_straight_line(tmp_path):
    """A tl.reduce combine that calls one of the file's own straight-line @triton.jit helpers by
    bare name runs on whole blocks, as the GPU inlines it (honest round s48: a Welford combine
    calling `_ratio(...)` ran element by element and timed out); a helper that branches does not."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "combines.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def _ratio(a, b):
            return a / tl.maximum(b, 1.0)

        @triton.jit
        def _branchy(a, b):
            if a > b:
                return a
            return b

        @triton.jit
        def straight(m1, n1, m2, n2):
            n = n1 + n2
            return m1 + (m2 - m1) * _ratio(n2, n), n

        @triton.jit
        def branching(m1, n1, m2, n2):
            return _branchy(m1, m2), n1 + n2
    '''))
    spec = importlib.util.spec_from_file_location("combines_s48", tmp_path / "combines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert interpreter_reduce.straight_line(module.straight)
    assert not interpreter_reduce.straight_line(module.branching)

def test_a_combine_branching_on_dtypes_alone_is_straight_line(tmp_path):
    """Inductor's triton_helpers `maximum_with_index` branches on `if is_floating(a_value):`, a
    compile-time branch on the GPU, the same for every element: it runs on whole blocks (honest
    round s50h: an Inductor argmax ran element by element and timed out). A branch on values,
    on a helper returning values, or on shapes stays element by element."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "combines.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def promote_to_tensor(x):
            return x + tl.zeros((1,), tl.int1)

        @triton.jit
        def is_floating(x):
            return promote_to_tensor(x).dtype.is_floating()

        @triton.jit
        def positive(x):
            return x > 0

        @triton.jit
        def typed(a_value, a_index, b_value, b_index):
            mask = a_value > b_value
            if is_floating(a_value):
                mask |= (a_value != a_value) & ~(b_value != b_value)
            else:
                mask |= a_value == b_value
            return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)

        @triton.jit
        def on_values(a_value, a_index, b_value, b_index):
            mask = a_value > b_value
            if positive(a_value):
                mask |= a_index < b_index
            return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)

        @triton.jit
        def on_shape(a_value, a_index, b_value, b_index):
            mask = a_value > b_value
            if a_value.shape[0] > 1:
                mask |= a_index < b_index
            return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)

        @triton.jit
        def returns_inside(a_value, a_index, b_value, b_index):
            if a_value.dtype.is_floating():
                return a_value, a_index
            return b_value, b_index
    '''))
    spec = importlib.util.spec_from_file_location("combines_s50h", tmp_path / "combines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert interpreter_reduce.straight_line(module.typed)
    assert not interpreter_reduce.straight_line(module.on_values)
    assert not interpreter_reduce.straight_line(module.on_shape)
    assert not interpreter_reduce.straight_line(module.returns_inside)

def test_a_combine_with_and_or_not_of_values_is_straight_line(tmp_path):
    """Inductor's verbatim `mask |= a_isnan and not b_isnan`: in a kernel or helper `and`, `or`
    and `not` of Triton values run elementwise (interpreter_scope's rewrite, as the GPU compiler
    reads them), so such a combine is the same on a block as per element and runs on blocks
    (honest round s50h: it ran element by element and timed out). A walrus stays branching."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "logic.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def nan_first(a_value, a_index, b_value, b_index):
            a_isnan = a_value != a_value
            b_isnan = b_value != b_value
            mask = a_value > b_value
            mask |= a_isnan and not b_isnan
            equal = (a_value == b_value) or (a_isnan and b_isnan)
            mask |= equal & (a_index < b_index)
            return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)

        @triton.jit
        def walrus(a, b):
            return (c := a + b) and c
    '''))
    spec = importlib.util.spec_from_file_location("logic_s50", tmp_path / "logic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert interpreter_reduce.straight_line(module.nan_first)
    assert not interpreter_reduce.straight_line(module.walrus)

def test_a_combine_runs_on_blocks_only_when_elementwise(tmp_path):
    """On the GPU a combine runs per element, on scalars: a combine reading its operand's shape
    (`a.shape`, `a.numel`, `a.type.is_block()`, all accepted by the sm_90 front end) or calling
    anything but Triton's elementwise functions would see the block on the CPU (session 58k:
    `a + b * a.type.is_block()` was a cumsum on the CPU and `a` on the GPU). Elementwise math,
    tl.where, libdevice, dtype reads and casts stay on blocks (interpreter_elementwise)."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "combines.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl
        from triton.language.extra import libdevice

        @triton.jit
        def math(a, b):
            m = tl.maximum(a, b)
            s = tl.math.exp(a - m) + libdevice.exp(b - m)
            return tl.where(a.dtype.is_floating(), m + tl.log(s), (a + b).to(a.dtype))

        @triton.jit
        def block_type(a, b):
            return a + b * a.type.is_block()

        @triton.jit
        def shape(a, b):
            return a + b * (a.shape != [])

        @triton.jit
        def numel(a, b):
            return a + b * (a.numel > 1)

        @triton.jit
        def sums(a, b):
            return a + b + 0 * tl.sum(a)

        @triton.jit
        def indexes(a, b):
            return a + b[None]

        @triton.jit
        def operand_method(a, b):
            return a + b.reshape(b.shape)
    '''))
    spec = importlib.util.spec_from_file_location("combines_s58k", tmp_path / "combines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert interpreter_reduce.straight_line(module.math)
    for name in ("block_type", "shape", "numel", "sums", "indexes", "operand_method"):
        assert not interpreter_reduce.straight_line(getattr(module, name)), name


def test_a_combine_spelling_infinity_with_float_of_a_constant_is_straight_line(tmp_path):
    """`float("-inf")` of a constant is one constant to the GPU front end, the same on a block
    as per element: a (max, sum of exp) combine guarding `m == -float("inf")` runs on whole
    blocks (honest round s60d: a cross entropy's tl.reduce over that combine ran element by
    element and timed out). `float` of an operand, or a `float` the file rebinds, stays element
    by element."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "combines.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def lse(m_a, s_a, m_b, s_b):
            m = tl.maximum(m_a, m_b)
            m_safe = tl.where(m == -float("inf"), 0.0, m)
            return m, s_a * tl.exp(m_a - m_safe) + s_b * tl.exp(m_b - m_safe)

        @triton.jit
        def of_operand(a, b):
            return a + float(b)

        @triton.jit
        def keyword(a, b):
            return tl.maximum(a, b) + int(x=0)
    '''))
    (tmp_path / "rebound.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        def float(v):
            return v

        @triton.jit
        def shadowed(a, b):
            return tl.maximum(a, b) + float("0")
    '''))
    modules = []
    for name in ("combines", "rebound"):
        spec = importlib.util.spec_from_file_location(f"{name}_s60d", tmp_path / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    combines, rebound = modules
    assert interpreter_reduce.straight_line(combines.lse)
    assert not interpreter_reduce.straight_line(combines.of_operand)
    assert not interpreter_reduce.straight_line(combines.keyword)
    assert not interpreter_reduce.straight_line(rebound.shadowed)


def test_a_combine_passing_a_triton_enum_member_is_straight_line(tmp_path):
    """`tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)` (torch's NaN-propagating max, as
    public attention code writes its row-max combine) reads one constant of Triton's: it runs on
    whole blocks (honest round s60d: a max_dim through it ran element by element, 3.6 s a
    forward). An enum of the file's own, or a class attribute that is no enum member, does not."""
    import importlib.util
    import textwrap

    from evaluator import interpreter_reduce

    (tmp_path / "combines.py").write_text(textwrap.dedent('''
        import enum

        import triton
        import triton.language as tl

        class Mode(enum.Enum):
            ALL = 1

        class Holder:
            block = 2

        @triton.jit
        def nan_max(a, b):
            return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)

        @triton.jit
        def own_enum(a, b):
            return tl.maximum(a, b) + Mode.ALL.value

        @triton.jit
        def class_attr(a, b):
            return tl.maximum(a, b) * Holder.block
    '''))
    spec = importlib.util.spec_from_file_location("combines_s60d_enum", tmp_path / "combines.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert interpreter_reduce.straight_line(module.nan_max)
    assert not interpreter_reduce.straight_line(module.own_enum)
    assert not interpreter_reduce.straight_line(module.class_attr)
